import { Link } from "@remix-run/react";

/** A page's popular keywords as chips linking to the search (the home page, and the console's preview of them). */
export function KeywordChips({ id, heading, keywords, lang }: { id: string; heading: string; keywords: readonly string[]; lang?: string }) {
  return (
    <section aria-labelledby={id} className="section" lang={lang}>
      <h2 id={id}>{heading}</h2>
      <ul className="chips">
        {keywords.map((k) => (
          <li key={k}>
            <Link to={`/search/all?keywords=${encodeURIComponent(k)}`}>{k}</Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
