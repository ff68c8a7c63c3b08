import { useTranslation } from "../../i18n/react";

/** The video preview: the poster, and the playable clip when the item has one. */
export function VideoPreview({ poster, clip, title }: { poster: string | null; clip: string | null; title: string }) {
  const { t } = useTranslation();
  if (!clip)
    return poster ? <img src={poster} alt={t("item.previewOf", { title })} width={640} height={360} className="preview-media" /> : null;
  return (
    <video
      className="preview-media"
      src={clip}
      poster={poster ?? undefined}
      controls
      muted
      loop
      playsInline
      preload="none"
      width={640}
      height={360}
      aria-label={t("item.previewOf", { title })}
    >
      {t("item.videoFallback")}
    </video>
  );
}
