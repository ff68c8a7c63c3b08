// Every page at 390 px in English (issue 26.3): the walk is in phone-width.ts.
import { phoneWidthWalk } from "./phone-width";

phoneWidthWalk("en");
