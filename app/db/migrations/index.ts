import type { Migration } from "kysely";
import * as m0001 from "./0001_initial";
import * as m0002 from "./0002_search";
import * as m0003 from "./0003_withdrawals";
import * as m0004 from "./0004_payments";
import * as m0005 from "./0005_sandbox_webhooks";
import * as m0006 from "./0006_coupons";
import * as m0007 from "./0007_downloads";
import * as m0008 from "./0008_cart_passes";
import * as m0009 from "./0009_search_facets";
import * as m0010 from "./0010_search_documents_narrow";
import * as m0011 from "./0011_search_postings";
import * as m0012 from "./0012_rate_limits";
import * as m0013 from "./0013_job_leases";
import * as m0014 from "./0014_purchase_requests";
import * as m0015 from "./0015_sign_in_handoffs";
import * as m0016 from "./0016_mail_queue";
import * as m0017 from "./0017_support_answers";
import * as m0018 from "./0018_operators";
import * as m0019 from "./0019_support_console";
import * as m0020 from "./0020_media_jobs";
import * as m0021 from "./0021_publishing";
import * as m0024 from "./0024_report_indexes";
import * as m0025 from "./0025_search_postings_sqlite";
import * as m0026 from "./0026_content_discontinued_at";
import * as m0027 from "./0027_content_version";
import * as m0028 from "./0028_handoff_kinds";
import * as m0029 from "./0029_audit_chain";
import * as m0030 from "./0030_order_language";

/** Every migration, in order. Imported statically so the server bundle carries them. */
export const migrations: Record<string, Migration> = {
  "0001_initial": m0001,
  "0002_search": m0002,
  "0003_withdrawals": m0003,
  "0004_payments": m0004,
  "0005_sandbox_webhooks": m0005,
  "0006_coupons": m0006,
  "0007_downloads": m0007,
  "0008_cart_passes": m0008,
  "0009_search_facets": m0009,
  "0010_search_documents_narrow": m0010,
  "0011_search_postings": m0011,
  "0012_rate_limits": m0012,
  "0013_job_leases": m0013,
  "0014_purchase_requests": m0014,
  "0015_sign_in_handoffs": m0015,
  "0016_mail_queue": m0016,
  "0017_support_answers": m0017,
  "0018_operators": m0018,
  "0019_support_console": m0019,
  "0020_media_jobs": m0020,
  "0021_publishing": m0021,
  "0024_report_indexes": m0024,
  "0025_search_postings_sqlite": m0025,
  "0026_content_discontinued_at": m0026,
  "0027_content_version": m0027,
  "0028_handoff_kinds": m0028,
  "0029_audit_chain": m0029,
  "0030_order_language": m0030,
};
