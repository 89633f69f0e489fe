// Screenshots an evaluation's report (REPORT_DIR/report.html) into a PNG: the page from its top to
// the end of its charts, 1,100 pixels wide, in Debian's Chromium (its path), headless and offline,
// with the flags in headless-chromium.json (the viewer's browser tests use them too). The PNG says where it came from in two text
// chunks that test/docs/docs-images.test.ts reads: `Source` (the command and the evaluation's id
// and time) and `Models` (each variant's provider/model, and the judge's). Used by
// eval-report-screenshot.sh.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const { chromium } = require('playwright-core');
const launch = require('./headless-chromium.json');

/** `png` with tEXt chunks for `texts` inserted after its header chunk (IHDR: 8 + 25 bytes). */
function withTexts(png, texts) {
  const chunks = Object.entries(texts).map(([keyword, text]) => {
    const data = Buffer.concat([Buffer.from(keyword, 'latin1'), Buffer.from([0]), Buffer.from(text, 'latin1')]);
    const type = Buffer.from('tEXt', 'latin1');
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(Buffer.concat([type, data])));
    return Buffer.concat([length, type, data, crc]);
  });
  return Buffer.concat([png.subarray(0, 33), ...chunks, png.subarray(33)]);
}

async function main() {
  const [reportDir, png, executablePath, command] = process.argv.slice(2);
  if (!reportDir || !png || !executablePath || !command)
    throw new Error('usage: screenshot-report.cjs REPORT_DIR OUT_PNG CHROMIUM COMMAND');
  const html = path.join(reportDir, 'report.html');
  const result = JSON.parse(fs.readFileSync(path.join(reportDir, 'result.json'), 'utf8'));
  const models = [
    ...result.variants.map((v) => `${v.id}: ${v.model.provider}/${v.model.model}`),
    ...(result.judge ? [`judge: ${result.judge.provider}/${result.judge.model}`] : []),
  ];
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-report-shot-'));
  const context = await chromium.launchPersistentContext(profile, {
    ...launch.options,
    executablePath,
  });
  try {
    const page = await context.newPage();
    await page.goto(`file://${path.resolve(html)}`);
    await page.waitForLoadState('load');
    const bottom = await page.$eval('.charts', (el) => el.getBoundingClientRect().bottom);
    const shot = await page.screenshot({
      fullPage: true,
      clip: { x: 0, y: 0, width: 1100, height: Math.ceil(bottom) + 24 },
    });
    const source = `${command} (evaluation of ${result.startedAt}, ${result.results.length} units, status ${result.status})`;
    fs.writeFileSync(png, withTexts(shot, { Source: source, Models: models.join('; ') }));
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
