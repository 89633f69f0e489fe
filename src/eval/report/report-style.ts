/** The report's only stylesheet, inline; the CSP allows exactly this text by its hash. */
export const REPORT_CSS = `
body { font: 14px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #111827; margin: 0; background: #f9fafb; }
main { max-width: 1040px; margin: 0 auto; padding: 24px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid #e5e7eb; padding-bottom: 4px; }
h3 { font-size: 14px; margin: 16px 0 4px; }
.meta { color: #4b5563; }
table { border-collapse: collapse; margin: 8px 0; background: #fff; }
th, td { border: 1px solid #e5e7eb; padding: 4px 10px; text-align: left; vertical-align: top; }
th { background: #f3f4f6; font-weight: 600; }
td.met { color: #047857; }
td.not_met { color: #b91c1c; font-weight: 600; }
td.not_measured { color: #6b7280; }
.gate { padding: 10px 14px; border-radius: 6px; margin: 12px 0; }
.gate h2 { margin-top: 4px; border: none; }
.gate.passed { background: #ecfdf5; border: 1px solid #a7f3d0; }
.gate.failed { background: #fef2f2; border: 1px solid #fecaca; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; }
figure { margin: 0; background: #fff; border: 1px solid #e5e7eb; border-radius: 6px; padding: 8px; }
figcaption { color: #4b5563; font-size: 12px; margin-top: 4px; }
.failure { background: #fff; border: 1px solid #e5e7eb; border-radius: 6px; padding: 8px 12px; margin: 8px 0; }
.failure ul { margin: 4px 0; padding-left: 20px; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; background: #f3f4f6; padding: 1px 4px; border-radius: 3px; overflow-wrap: anywhere; }
`;
