import { matchRoutes } from "@remix-run/router";
import { memoizeMatchRoutes, type RouteLike, treeShape } from "../../app/utils/route-matching.server";

/** A tree shaped like the store's: root, a pathless layout, indexes, params, a splat, optional and case-sensitive segments. */
function storeTree(): RouteLike[] {
  return [
    {
      id: "root",
      path: "",
      children: [
        {
          id: "routes/_store",
          children: [
            { id: "routes/_store._index", index: true },
            { id: "routes/_store.$category", path: ":category" },
            { id: "routes/_store.list.$space.$id", path: "list/:space/:id" },
            { id: "routes/_store.contents.$type", path: "contents/:type" },
            { id: "routes/_store.search.$type", path: "search/:type" },
            { id: "routes/_store.price._index", path: "price", index: true },
            { id: "routes/_store.price.$type", path: "price/:type" },
            {
              id: "routes/_store.mypage",
              path: "mypage",
              children: [
                { id: "routes/_store.mypage._index", index: true },
                { id: "routes/_store.mypage.pay.$id", path: "pay/:id" },
              ],
            },
            { id: "routes/_store.docs", path: "docs/:lang?/guide" },
            { id: "routes/_store.Exact", path: "Exact", caseSensitive: true },
          ],
        },
        { id: "routes/api.v1.$", path: "api/v1/*" },
        { id: "routes/$", path: "*" },
      ],
    },
  ];
}

const PATHS = [
  "/",
  "/audio",
  "/list/audio/12",
  "/list/audio/12?page=3",
  "/contents/video",
  "/contents/video?code=VI0000001#top",
  "/contents",
  "/search/all",
  "/price",
  "/price/audio-bgm",
  "/mypage",
  "/mypage/pay/9",
  "/mypage/nothing/here",
  "/docs/guide",
  "/docs/ko/guide",
  "/Exact",
  "/exact",
  "/api/v1/contents/abc",
  "/%ED%95%9C%EA%B8%80",
  "/a/b/c/d",
];

/** What a match says, with the route by id (the objects are compared for identity separately). */
const plain = (matches: ReturnType<typeof matchRoutes>) =>
  matches?.map((m) => ({ params: m.params, pathname: m.pathname, pathnameBase: m.pathnameBase, id: m.route.id })) ?? null;

describe("memoized matchRoutes", () => {
  it("answers as matchRoutes does, on the tree it is given, again and again", () => {
    const memo = memoizeMatchRoutes(matchRoutes as never);
    for (let round = 0; round < 3; round++) {
      // A new copy of the same tree each round, as the React side builds one per render.
      const tree = storeTree();
      for (const path of PATHS) {
        const expected = matchRoutes(tree as never, path);
        const got = memo(tree, path);
        expect(plain(got as never)).toEqual(plain(expected));
        got?.forEach((m, i) => {
          expect(m.route).toBe(expected?.[i].route);
          // One params object for all matches of a call, as matchRoutes gives.
          expect(m.params).toBe(got[0].params);
        });
      }
    }
    expect(memo.stats.misses).toBe(PATHS.length - 2); // "/list/audio/12?page=3" and "/contents/video?code=..." share their paths
    expect(memo.stats.hits).toBe(PATHS.length * 2 + 2);
  });

  it("gives each call its own params object", () => {
    const memo = memoizeMatchRoutes(matchRoutes as never);
    const tree = storeTree();
    for (let i = 0; i < 2; i++) (memo(tree, "/list/audio/12")?.[0].params as Record<string, string>).space = "changed";
    expect(memo(tree, "/list/audio/12")?.[0].params.space).toBe("audio");
  });

  it("keeps trees of other shapes apart, and the basename and location object are part of the question", () => {
    const memo = memoizeMatchRoutes(matchRoutes as never);
    const tree = storeTree();
    expect(memo(tree, "/contents/video")?.at(-1)?.route.id).toBe("routes/_store.contents.$type");
    const other = storeTree();
    (other[0].children?.[0].children?.[3] as RouteLike).path = "items/:type";
    expect(treeShape(other)).not.toBe(treeShape(tree));
    expect(memo(other, "/contents/video")?.at(-1)?.route.id).toBe("routes/$");
    expect(plain(memo(other, "/contents/video") as never)).toEqual(plain(matchRoutes(other as never, "/contents/video")));
    expect(plain(memo(tree, { pathname: "/shop/audio" }, "/shop") as never)).toEqual(
      plain(matchRoutes(tree as never, "/shop/audio", "/shop")),
    );
    expect(memo(tree, "/audio", "/shop")).toBeNull();
  });
});
