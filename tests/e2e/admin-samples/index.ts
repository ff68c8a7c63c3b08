// The console's fuzz samples, one file per section (each section's author keeps its own file).
import * as catalog from "./catalog";
import * as core from "./core";
import * as members from "./members";
import * as modes from "./modes";
import * as orders from "./orders";
import * as publishing from "./publishing";
import * as reports from "./reports";
import * as support from "./support";

const sections = [core, support, catalog, publishing, orders, members, modes, reports];
export const ADMIN_FORM_SAMPLES = Object.assign({}, ...sections.map((s) => s.FORM_SAMPLES)) as Record<
  string,
  Record<string, string | string[]>[]
>;
export const ADMIN_PARAMS = Object.assign({}, ...sections.map((s) => s.PARAMS)) as Record<string, Record<string, string>>;
