import { createRequire } from "node:module";

/**
 * A memo for React Router's matchRoutes on the server. matchRoutes flattens and ranks the whole route tree and
 * compiles a regular expression per route pattern on every call, and a page render calls it some five times
 * (Remix's request handler, the React side's static router, the lazy route discovery's partial manifest for the
 * path and each of its parents): about a tenth of a member page's CPU for the store's 51 routes.
 *
 * The answer of matchRoutes depends only on the tree's shape (each route's path, index and caseSensitive, and its
 * children) and on the pathname; the React side builds a new copy of the same tree for every render. So the memo
 * keeps, per tree shape and pathname, where the matched routes sit in the tree (a child index per level) and the
 * matched params and pathnames, and answers each call with fresh match objects pointing at the routes of the tree
 * it was given.
 */
export interface RouteLike {
  id?: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children?: RouteLike[];
}
export interface RouteMatchLike<R extends RouteLike = RouteLike> {
  params: Record<string, string | undefined>;
  pathname: string;
  pathnameBase: string;
  route: R;
}
type MatchRoutes = (routes: RouteLike[], location: string | { pathname?: string }, basename?: string) => RouteMatchLike[] | null;

interface Remembered {
  /** Per match, the index of its route among its parent's children (the tree's top level for the first). */
  at: number[];
  params: Record<string, string | undefined>;
  paths: [string, string][];
}

/** Pathnames remembered per tree shape before the memo starts over (paths carry ids: /list/audio/123). */
const MAX_PATHS = 4000;
const MAX_SHAPES = 8;

/** The tree's shape as a string: what matchRoutes reads of each route, in order, with the nesting. */
export function treeShape(routes: RouteLike[]): string {
  let out = "";
  const walk = (list: RouteLike[]) => {
    for (const r of list) {
      out += `${r.index ? "i" : ""}${r.caseSensitive ? "c" : ""}:${r.path ?? "\u0001"}`;
      if (r.children?.length) {
        out += "[";
        walk(r.children);
        out += "]";
      }
      out += ",";
    }
  };
  walk(routes);
  return out;
}

const pathnameOf = (location: string | { pathname?: string }) => {
  if (typeof location !== "string") return location.pathname || "/";
  const end = location.search(/[?#]/);
  return (end < 0 ? location : location.slice(0, end)) || "/";
};

export function memoizeMatchRoutes(original: MatchRoutes): MatchRoutes & { stats: { hits: number; misses: number } } {
  const shapes = new Map<string, Map<string, Remembered | null>>();
  const shapeOf = new WeakMap<RouteLike[], string>();
  const stats = { hits: 0, misses: 0 };
  const memo = (routes: RouteLike[], location: string | { pathname?: string }, basename = "/") => {
    let shape = shapeOf.get(routes);
    if (shape === undefined) {
      shape = treeShape(routes);
      shapeOf.set(routes, shape);
    }
    let paths = shapes.get(shape);
    if (!paths) {
      if (shapes.size >= MAX_SHAPES) shapes.clear();
      paths = new Map();
      shapes.set(shape, paths);
    }
    const pathname = pathnameOf(location);
    const key = `${basename}\u0000${pathname}`;
    const known = paths.get(key);
    if (known !== undefined) {
      const rebuilt = known && rebuild(routes, known);
      if (rebuilt !== undefined) {
        stats.hits++;
        return rebuilt;
      }
    }
    stats.misses++;
    const matches = original(routes, pathname, basename);
    if (paths.size >= MAX_PATHS) paths.clear();
    paths.set(key, matches ? remember(routes, matches) : null);
    return matches;
  };
  return Object.assign(memo, { stats });
}

function remember(routes: RouteLike[], matches: RouteMatchLike[]): Remembered | null {
  const at: number[] = [];
  let level: RouteLike[] | undefined = routes;
  for (const m of matches) {
    const i = level?.indexOf(m.route) ?? -1;
    // Not a walk down the tree given (never the case for matchRoutes): not remembered, asked again next time.
    if (i < 0) return null;
    at.push(i);
    level = m.route.children;
  }
  return { at, params: { ...matches[0]?.params }, paths: matches.map((m) => [m.pathname, m.pathnameBase]) };
}

/** Fresh matches on the tree given (one params object shared by all of them, as matchRoutes does). */
function rebuild(routes: RouteLike[], known: Remembered): RouteMatchLike[] | undefined {
  const params = { ...known.params };
  const out: RouteMatchLike[] = [];
  let level: RouteLike[] | undefined = routes;
  for (let i = 0; i < known.at.length; i++) {
    const route: RouteLike | undefined = level?.[known.at[i]];
    if (!route) return undefined;
    out.push({ params, pathname: known.paths[i][0], pathnameBase: known.paths[i][1], route });
    level = route.children;
  }
  return out;
}

let installed: ReturnType<typeof memoizeMatchRoutes> | null = null;

/**
 * Puts the memo in place of @remix-run/router's matchRoutes for everything that looks it up on the module's
 * exports at call time: Remix's request handler, the lazy route discovery and React Router's rendering (the
 * static handler's own call inside the router module stays as it is). Once per process, before the first request.
 */
export function installRouteMatchMemo(): { hits: number; misses: number } {
  if (installed) return installed.stats;
  const router = createRequire(import.meta.url)("@remix-run/router") as { matchRoutes: MatchRoutes };
  installed = memoizeMatchRoutes(router.matchRoutes);
  router.matchRoutes = installed;
  return installed.stats;
}
