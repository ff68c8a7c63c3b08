import { Form } from "@remix-run/react";
import { useEffect, useId, useState } from "react";
import { useTranslation } from "../../i18n/react";

export const FONT_PREVIEW_MAX = 100;

/** The WOFF2 subset of a font item holding the glyphs of `text` (the store cuts it on request). */
export const subsetUrl = (code: string, text: string) =>
  `/api/v1/font/subset?contents_code=${encodeURIComponent(code)}&text=${encodeURIComponent(text)}`;

/**
 * Live font preview: the typed text (up to 100 characters) renders in the item's font, served as a
 * WOFF2 subset holding only those glyphs. Without scripts the form reloads the page with `text`.
 */
export function FontPreview({ code, initialText, family }: { code: string; initialText: string; family: string }) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState(initialText);
  const [face, setFace] = useState(`preview-${code}`);

  useEffect(() => {
    if (typeof FontFace === "undefined") return;
    const timer = setTimeout(() => {
      const name = `preview-${code}-${Date.now()}`;
      const font = new FontFace(name, `url(${subsetUrl(code, text || " ")}) format("woff2")`);
      font
        .load()
        .then((loaded) => {
          document.fonts.add(loaded);
          setFace(name);
        })
        .catch(() => {});
    }, 200);
    return () => clearTimeout(timer);
  }, [code, text]);

  const shown = text || initialText;
  return (
    <section className="font-preview" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t("item.fontPreview")}</h2>
      {/* The first paint uses the server-rendered subset of the initial text. */}
      <style
        // Raw text: React would escape the quotes, and a browser does not decode entities inside <style>.
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the code is validated and the text is URL-encoded
        dangerouslySetInnerHTML={{
          __html: `@font-face{font-family:"preview-${code}";src:url("${subsetUrl(code, initialText)}") format("woff2");font-display:swap}`,
        }}
      />
      <Form method="get" className="font-preview-form" preventScrollReset>
        <input type="hidden" name="code" value={code} />
        <label htmlFor={`${id}-text`}>{t("item.fontPreviewLabel")}</label>
        <div className="font-preview-input">
          <input
            id={`${id}-text`}
            name="text"
            type="text"
            // maxLength counts UTF-16 units; 200 lets 100 emoji through, and the change handler and the
            // server cut to 100 characters (code points).
            maxLength={FONT_PREVIEW_MAX * 2}
            value={text}
            onChange={(e) => setText([...e.currentTarget.value].slice(0, FONT_PREVIEW_MAX).join(""))}
            aria-describedby={`${id}-count`}
          />
          <button type="submit">{t("item.fontPreviewApply")}</button>
        </div>
        <span id={`${id}-count`} className="muted">
          {t("item.fontPreviewCount", { count: [...text].length })}
        </span>
      </Form>
      <p className="font-sample-text" data-testid="font-sample" style={{ fontFamily: `"${face}", "${family}", sans-serif` }}>
        {shown}
      </p>
    </section>
  );
}
