import { z } from "zod";

/** A Seoul wall-clock time from a datetime-local field ("2026-11-27T02:00") as an ISO instant. */
export function seoulLocalToIso(value: string): string {
  return new Date(`${value}:00+09:00`).toISOString();
}

/** A Seoul wall-clock time as milliseconds (NaN when it is not one). */
function seoulTime(value: unknown): number {
  return typeof value === "string" ? new Date(`${value}:00+09:00`).getTime() : Number.NaN;
}

/** An ISO instant as a datetime-local field's value in Seoul ("2026-11-27T02:00"). */
export function isoToSeoulLocal(iso: string | null | undefined): string {
  if (!iso) return "";
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return "";
  return new Date(t + 9 * 3600_000).toISOString().slice(0, 16);
}

const local = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, "time")
  .refine((v) => !Number.isNaN(new Date(`${v}:00+09:00`).getTime()), "time")
  .optional()
  .or(z.literal("").transform(() => undefined));

/** The /admin/modes form: the three switches, the window (Seoul times) and the text in each language. */
export const modesFormSchema = z
  .object({
    home: z.enum(["full", "service-stop"], { message: "home" }),
    inspection: z.literal("on").optional(),
    errorService: z.literal("on").optional(),
    start: local,
    end: local,
    textKo: z.string().trim().max(500, "text").default(""),
    textEn: z.string().trim().max(500, "text").default(""),
  })
  .superRefine((v, ctx) => {
    if (Boolean(v.start) !== Boolean(v.end)) ctx.addIssue({ code: "custom", path: ["end"], message: "window_both" });
    else if (v.start && v.end && !(seoulTime(v.start) < seoulTime(v.end)))
      ctx.addIssue({ code: "custom", path: ["end"], message: "window_order" });
  });

export type ModesForm = z.infer<typeof modesFormSchema>;

/** The message key of the first problem (`admin.modes.problems.<key>`). */
export function modesProblem(error: z.ZodError): string {
  const message = error.issues[0]?.message ?? "";
  return ["home", "time", "text", "window_both", "window_order"].includes(message) ? message : "invalid";
}
