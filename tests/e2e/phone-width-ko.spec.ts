// Every page at 390 px in Korean (issue 26.3): the walk is in phone-width.ts.
import { phoneWidthWalk } from "./phone-width";

phoneWidthWalk("ko");
