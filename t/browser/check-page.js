#!/usr/bin/env node
// Checks pages of `tokstream html` in a real browser: headless Chromium
// (/usr/bin/chromium) driven by playwright-core (t/browser/node_modules).
//
//   node check-page.js --page FILE [--index FILE]... --shots DIR
//        --tip-token TEXT --tip-summary S --tip-author A --tip-id ID
//        --other-token TEXT          a token by another author than tip-token's
//        --commit-tokens TEXT ...    two tokens of one author, from two commits
//        --legend-author A --legend-tokens "T1 T2 ..."   all of A's tokens, in order
//        --url URL                   where a click on tip-token must go
//        [--hostile FILE]... [--hostile-summary S]... [--hostile-text T]...
//
// Prints "ok - ..." or "FAIL - ..." for every check; exits 1 when any failed.
'use strict';

const fs = require('fs');
const path = require('path');
const { pathToFileURL, fileURLToPath } = require('url');
const { parseArgs, check, launch, run } = require('./lib');

const opt = parseArgs(process.argv.slice(2), ['index', 'commit-tokens', 'hostile', 'hostile-summary', 'hostile-text'], 'check-page.js');
for (const k of ['page', 'shots', 'tip-token', 'tip-summary', 'tip-author', 'tip-id',
	'other-token', 'legend-author', 'legend-tokens', 'url']) {
	if (!opt[k]) {
		console.error(`check-page.js: --${k} is required`);
		process.exit(2);
	}
}
if (opt['commit-tokens'].length !== 2) {
	console.error('check-page.js: give --commit-tokens twice');
	process.exit(2);
}

const url = (file) => pathToFileURL(file).href;

// The span.t whose text is exactly TEXT (the first one).
async function token(page, text) {
	const spans = page.locator('#code span.t');
	const n = await spans.count();
	for (let i = 0; i < n; i++)
		if ((await spans.nth(i).textContent()) === text)
			return spans.nth(i);
	throw new Error(`no token ${JSON.stringify(text)} on the page`);
}

const colour = (loc) => loc.evaluate((el) => getComputedStyle(el).color);
const dyn = (page) => page.evaluate(() => document.getElementById('dyn').textContent);

async function rest(page) {
	// away from every token and legend row
	await page.mouse.move(1, 1);
}

async function main() {
	const browser = await launch();
	const context = await browser.newContext({ viewport: { width: 900, height: 700 } });
	const dialogs = [], requests = [], errors = [];
	let commitHit = null;
	context.on('request', (r) => requests.push(r.url()));
	// nothing leaves the machine: the commit URL is answered here, anything else refused
	await context.route((u) => !u.href.startsWith('file:'), (route) => {
		const u = route.request().url();
		if (u.startsWith('https://example.org/')) {
			commitHit = u;
			return route.fulfill({ status: 200, contentType: 'text/html', body: '<title>commit</title>' });
		}
		return route.abort();
	});
	const page = await context.newPage();
	page.setDefaultTimeout(10000);
	page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss().catch(() => {}); });
	page.on('pageerror', (e) => errors.push(String(e)));
	fs.mkdirSync(opt.shots, { recursive: true });

	// ---- the page of a file ----
	await page.goto(url(opt.page));
	check(errors.length === 0, 'the page runs without a script error', errors.join('; '));

	const tipTok = await token(page, opt['tip-token']);
	const other = await token(page, opt['other-token']);
	await tipTok.hover();
	const tip = page.locator('#tip');
	check(await tip.isVisible(), `hovering ${opt['tip-token']} shows #tip`);
	const tipText = (await tip.innerText()).split('\n');
	check(tipText.includes(opt['tip-summary']), `#tip shows the summary "${opt['tip-summary']}"`, tipText.join(' | '));
	check(tipText.some((l) => l.split(/\s+/)[0] === opt['tip-author']), `#tip shows the author ${opt['tip-author']}`,
		tipText.join(' | '));
	check(tipText.includes(opt['tip-id']), `#tip shows the full original id ${opt['tip-id']}`, tipText.join(' | '));
	await page.screenshot({ path: path.join(opt.shots, 't0320-add.png'), fullPage: true });
	await rest(page);
	check(!(await tip.isVisible()), '#tip hides when the mouse leaves the token');

	const cTip = await colour(tipTok), cOther = await colour(other);
	check(cTip !== cOther, `${opt['tip-token']} and ${opt['other-token']} (different authors) differ in colour`,
		`${cTip} vs ${cOther}`);
	const [k1, k2] = [await token(page, opt['commit-tokens'][0]), await token(page, opt['commit-tokens'][1])];
	const [a1, a2] = [await colour(k1), await colour(k2)];
	check(a1 === a2, 'by author, two commits of one author share a colour', `${a1} vs ${a2}`);

	// ---- colour by commit, then by age ----
	const dynAuthor = await dyn(page);
	await page.click('#by button[value="commit"]');
	const dynCommit = await dyn(page);
	check(dynCommit !== dynAuthor, 'the commit button recomputes the colours (#dyn changed)');
	check(await page.locator('#by button[value="commit"]').isDisabled(), 'the commit button is disabled while chosen');
	const [b1, b2] = [await colour(k1), await colour(k2)];
	check(b1 !== b2, 'by commit, the two commits of one author differ in colour', `${b1} vs ${b2}`);
	const rowsCommit = await page.locator('#legend-rows tr').count();
	await page.screenshot({ path: path.join(opt.shots, 't0320-commit-colours.png'), fullPage: true });
	await page.click('#by button[value="age"]');
	const dynAge = await dyn(page);
	check(dynAge !== dynCommit && /hsl\(/.test(dynAge), 'the age button colours by age (hsl ramp)', dynAge);
	await page.click('#by button[value="author"]');
	check((await dyn(page)) === dynAuthor, 'the author button gives back the first colours');
	const rowsAuthor = await page.locator('#legend-rows tr').count();
	check(rowsCommit > rowsAuthor, 'the legend has a row per commit by commit, per author by author',
		`${rowsCommit} vs ${rowsAuthor}`);

	// ---- the legend ----
	const rows = page.locator('#legend-rows tr');
	let row = null;
	for (let i = 0; i < await rows.count(); i++)
		if ((await rows.nth(i).locator('td').nth(1).textContent()) === opt['legend-author'])
			row = rows.nth(i);
	check(row !== null, `the legend has a row for ${opt['legend-author']}`);
	if (row) {
		await row.hover();
		const on = await page.$$eval('#code span.t.on', (s) => s.map((e) => e.textContent).join(' '));
		check(on === opt['legend-tokens'], `hovering ${opt['legend-author']}'s row marks exactly their tokens`,
			`marked: ${on}`);
		check(await page.evaluate(() => document.body.classList.contains('hl')), 'the body has class hl meanwhile');
		await page.screenshot({ path: path.join(opt.shots, 't0320-legend.png'), fullPage: true });
		await rest(page);
		check((await page.locator('span.t.on').count()) === 0, 'leaving the row unmarks them');
		await row.click();
		await rest(page);
		check((await page.locator('span.t.on').count()) > 0, 'a click on the row keeps them marked');
		await row.click();
		await rest(page);
		check((await page.locator('span.t.on').count()) === 0, 'a second click releases them');
	}

	// ---- a click goes to the commit ----
	await Promise.all([page.waitForURL((u) => u.href.startsWith('https://')), tipTok.click()]);
	check(commitHit === opt.url, `a click on ${opt['tip-token']} goes to ${opt.url}`, String(commitHit));
	check(commitHit !== null && commitHit.includes(opt['tip-id']), 'the target URL holds the original id');

	// ---- indexes: every link leads to a page that exists ----
	for (const [n, idx] of opt.index.entries()) {
		await page.goto(url(idx));
		await page.screenshot({ path: path.join(opt.shots, `t0320-index-${n + 1}.png`), fullPage: true });
		const hrefs = await page.$$eval('a[href]', (as) => as.map((a) => a.href));
		const missing = hrefs.filter((h) => {
			const u = new URL(h);
			try {
				return u.protocol !== 'file:' || u.search || u.hash || !fs.existsSync(fileURLToPath(u));
			} catch (e) {
				return true;  // not a path: a malformed %-escape
			}
		});
		check(hrefs.length > 1 && missing.length === 0,
			`every link of ${path.relative(path.dirname(opt.page), idx)} (${hrefs.length}) leads to a page`,
			missing.join(' '));
		for (let i = 0; i < hrefs.length; i++) {
			await page.goto(url(idx));
			const link = page.locator('a[href]').nth(i);
			await link.hover();
			await link.click();
			await page.waitForLoadState();
			const t = await page.title();
			if (!/ - tokstream$/.test(t))
				check(false, `following link ${i} of ${idx} opens a page`, `${page.url()} title ${JSON.stringify(t)}`);
		}
		check(await page.evaluate(() => window.__xss === undefined), `nothing ran on ${path.relative(path.dirname(opt.page), idx)} and its links`);
	}

	// ---- hostile pages: nothing runs, everything shows as text ----
	for (const h of opt.hostile) {
		errors.length = 0;
		await page.goto(url(h));
		check(errors.length === 0, `${path.basename(h)}: the page runs without a script error`, errors.join('; '));
		const spans = page.locator('#code span.t');
		const tips = new Set();
		for (let i = 0; i < await spans.count(); i++) {
			await spans.nth(i).hover();
			tips.add(await page.locator('#tip').innerText());
		}
		for (const b of ['commit', 'age', 'author']) {
			await page.click(`#by button[value="${b}"]`);
			const r = page.locator('#legend-rows tr');
			for (let i = 0; i < await r.count(); i++)
				await r.nth(i).hover();
		}
		await page.waitForTimeout(300);
		const texts = await page.$$eval('#code span.t', (s) => s.map((e) => e.textContent));
		for (const t of opt['hostile-text'])
			if (h === opt.hostile[0])
				check(texts.includes(t), `${path.basename(h)}: the token ${t} shows as text`);
		const allTips = [...tips].join('\n').split('\n');
		for (const s of opt['hostile-summary'])
			if (h === opt.hostile[0])
				check(allTips.includes(s), `${path.basename(h)}: #tip shows the summary ${s} as text`);
		const st = await page.evaluate(() => ({
			xss: typeof window.__xss,
			scripts: document.scripts.length,
			foreign: document.querySelectorAll('img,svg,iframe,object,embed,textarea,b b').length,
		}));
		check(st.xss === 'undefined', `${path.basename(h)}: window.__xss stays undefined`, st.xss);
		check(st.scripts === 1, `${path.basename(h)}: the page's one script is the only one`, st.scripts);
		check(st.foreign === 0, `${path.basename(h)}: no element from the repository's bytes`, st.foreign);
		if (h === opt.hostile[0])
			await page.screenshot({ path: path.join(opt.shots, 't0320-hostile.png'), fullPage: true });
	}

	check(dialogs.length === 0, 'no dialog ever opened', dialogs.join('; '));
	const foreign = requests.filter((u) => !u.startsWith('file:') && u !== opt.url);
	check(foreign.length === 0, 'no request left file:// but the click on a token', foreign.join(' '));
	await browser.close();
}

run(main);
