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
//        --url-template T            --commit-url: every token must link to T with %H its id
//        [--gutter N=TEXT]...        the text of line N's gutter on --page
//        --long FILE                 a page longer than the window, where
//          [--long-gutter N=TEXT]... its gutters, --filter TEXT --filter-keeps LABEL
//          (what the legend keeps), --map-line N (clicked on the minimap),
//          --anchor-line N (loaded as #LN) are checked
//        [--bars INDEX]...           indexes whose bars must match their shares
//        [--crowd FILE]              a page of more than ten authors and commits: by
//                                    author and by commit, the ten largest have ten
//                                    colours, the rest one grey
//        [--hostile FILE]... [--hostile-summary S]... [--hostile-text T]...
//
// Prints "ok - ..." or "FAIL - ..." for every check; exits 1 when any failed.
'use strict';

const fs = require('fs');
const path = require('path');
const { pathToFileURL, fileURLToPath } = require('url');
const { parseArgs, check, launch, run } = require('./lib');

const opt = parseArgs(process.argv.slice(2), ['index', 'commit-tokens', 'hostile', 'hostile-summary', 'hostile-text',
	'gutter', 'long-gutter', 'bars'], 'check-page.js');
for (const k of ['page', 'shots', 'tip-token', 'tip-summary', 'tip-author', 'tip-id',
	'other-token', 'legend-author', 'legend-tokens', 'url', 'url-template', 'long', 'filter', 'filter-keeps',
	'map-line', 'anchor-line']) {
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

// The token (.t, a link or a span) whose text is exactly TEXT (the first one).
async function token(page, text) {
	const spans = page.locator('#code .t');
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

// Whether el's box lies within the window, below the header that stays on top.
async function inView(page, loc) {
	const [box, top, vh] = [await loc.boundingBox(), await page.evaluate(() => document.querySelector('header').offsetHeight),
		await page.evaluate(() => innerHeight)];
	return box !== null && box.height > 0 && box.y >= top - 1 && box.y + box.height <= vh + 1;
}

// The text of line n's gutter, its white space made single.
const gutterText = (page, n) => page.locator(`#L${n} td.g`).evaluate((td) => td.textContent.replace(/\s+/g, ' ').trim());

async function checkGutters(page, specs, what) {
	for (const g of specs) {
		const [n, want] = [g.slice(0, g.indexOf('=')), g.slice(g.indexOf('=') + 1)];
		const got = await gutterText(page, n);
		check(got === want, `${what}: the gutter of line ${n} reads "${want}"`, got);
	}
}

// Every token links to the template with its own commit's id (C: the page's commits).
async function checkTokenLinks(page) {
	const bad = await page.evaluate((t) => {
		const out = [];
		for (const a of document.querySelectorAll('#code .t')) {
			const k = /\bc(\d+)\b/.exec(a.className)[1];
			if (a.tagName !== 'A' || a.getAttribute('href') !== t.split('%H').join(window.C[k].id))
				out.push(`${a.tagName} ${a.textContent} ${a.getAttribute('href')}`);
		}
		return out;
	}, opt['url-template']);
	const n = await page.locator('#code .t').count();
	check(n > 0 && bad.length === 0, `each of the ${n} tokens is a link to its commit`, bad.slice(0, 5).join('; '));
}

// The visible legend rows' labels.
const legendLabels = (page) => page.$$eval('#legend-rows tr',
	(rs) => rs.filter((r) => r.getClientRects().length).map((r) => r.cells[1].textContent));

async function checkLongPage(page) {
	await page.goto(url(opt.long));
	const nr = await page.locator('#code tr').count();
	await checkGutters(page, opt['long-gutter'], path.basename(opt.long));

	// the legend and the minimap stay beside the code however far it scrolls
	await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
	await page.waitForTimeout(200);
	check(await page.evaluate(() => scrollY) > 2000, 'the long page scrolls far', await page.evaluate(() => scrollY));
	check(await inView(page, page.locator('#side')), 'scrolled to the bottom, the whole legend is in the window',
		JSON.stringify(await page.locator('#side').boundingBox()));
	check(await inView(page, page.locator('#legend-rows tr').first()), 'and so is its first row');
	check(await inView(page, page.locator('#map')), 'and so is the minimap');

	// the filter narrows the legend, by author and, by commit, by summary too
	const all = await legendLabels(page);
	await page.fill('#legend-filter', opt.filter);
	const kept = await legendLabels(page);
	check(all.length > 2 && kept.length === 1 && kept[0] === opt['filter-keeps'],
		`filtering the legend by "${opt.filter}" keeps only ${opt['filter-keeps']}`, `${all} -> ${kept}`);
	await page.locator('#legend-rows tr:not([hidden])').first().hover();
	const lit = await page.$$eval('#code .t.on', (s) => [...new Set(s.map((e) => window.C[/\bc(\d+)\b/.exec(e.className)[1]].a))]);
	check(lit.length === 1 && lit[0] === opt['filter-keeps'], `hovering the row left marks ${opt['filter-keeps']}'s tokens only`, lit.join());
	await rest(page);
	await page.fill('#legend-filter', '');
	check((await legendLabels(page)).length === all.length, 'emptying the filter gives every row back');
	await page.click('#by button[value="commit"]');
	await page.fill('#legend-filter', opt.filter);
	const byCommit = await page.$$eval('#legend-rows tr', (rs) => rs.filter((r) => r.getClientRects().length)
		.map((r) => [...new Set(r.dataset.c.split(' ').map((k) => window.C[k].a))].join()));
	await page.fill('#legend-filter', '');
	await page.click('#by button[value="author"]');
	check(byCommit.length >= 1 && byCommit.every((a) => a === opt['filter-keeps']),
		`by commit, the filter keeps ${opt['filter-keeps']}'s commits only`, byCommit.join(' | '));

	// a click on the minimap goes to its line
	await page.evaluate(() => window.scrollTo(0, 0));
	await page.waitForTimeout(100);
	const n = +opt['map-line'];
	const box = await page.locator('#map').boundingBox();
	const rh = Math.min(4, box.height / nr);
	const y = Math.round((n - 1) * rh);
	const px = await page.evaluate(([x, y]) => [...document.getElementById('map').getContext('2d').getImageData(x, y, 1, 1).data],
		[3, y]);
	const gc = await page.locator(`#L${n} .gc`).evaluate((e) => getComputedStyle(e).color);
	const first = await page.locator('#L1 .gc').evaluate((e) => getComputedStyle(e).color);
	check(gc !== first && `rgb(${px.slice(0, 3).join(', ')})` === gc,
		`the minimap's row of line ${n} has the colour of its gutter's commit (${gc}, not ${first})`, px.join());
	await page.mouse.click(box.x + box.width / 2, box.y + (n - 0.5) * rh);
	await page.waitForTimeout(300);
	check(await page.evaluate(() => location.hash) === `#L${n}`, `a click on the minimap at line ${n} makes it #L${n}`,
		await page.evaluate(() => location.hash));
	check(await inView(page, page.locator(`#L${n}`)) && !(await inView(page, page.locator('#L1'))),
		`and scrolls line ${n} into the window`);
	await page.screenshot({ path: path.join(opt.shots, 't0410-minimap.png') });

	// #L<n> on loading: the line in view, and highlighted
	const a = +opt['anchor-line'];
	await page.goto('about:blank');
	await page.goto(url(opt.long) + `#L${a}`);
	await page.waitForTimeout(200);
	const bg = (k) => page.locator(`#L${k}`).evaluate((e) => getComputedStyle(e).backgroundColor);
	check(await inView(page, page.locator(`#L${a}`)) && !(await inView(page, page.locator('#L1'))),
		`loading #L${a} scrolls line ${a} into the window`);
	const marked = await bg(a), unlit = await bg(a - 1);
	check(marked !== unlit && marked !== 'rgba(0, 0, 0, 0)', `and highlights it (${marked}, not ${unlit})`);
	await page.screenshot({ path: path.join(opt.shots, 't0410-file.png') });
	await page.click(`#L${a + 5} td.ln a`);
	const hash = await page.evaluate(() => location.hash), [now, before] = [await bg(a + 5), await bg(a)];
	check(hash === `#L${a + 5}` && now === marked && before === unlit,
		'a line number is a link to its line, which it highlights instead', `${hash} ${now} ${before}`);
}

// Each segment of each bar is as wide as its share of the row's tokens.
// The legend's swatches by author and by commit: the first ten, the largest,
// have ten colours no other row has; every other row the one grey.
async function checkCrowd(page, file) {
	await page.goto(url(file));
	for (const by of ['author', 'commit']) {
		if (by !== 'author')  // the colouring the page opens with: its button is disabled
			await page.click(`#by button[value="${by}"]`);
		const sw = await page.$$eval('#legend-rows tr .sw', (s) => s.map((e) => getComputedStyle(e).backgroundColor));
		const top = sw.slice(0, 10), rest = new Set(sw.slice(10));
		check(sw.length > 10 && new Set(top).size === 10, `by ${by}: the ten largest have ten colours`, top.join(' '));
		check(rest.size === 1 && !top.includes([...rest][0]), `by ${by}: the other ${sw.length - 10} share one grey`,
			[...rest].join(' '));
		const tokens = await page.$$eval('#code .t', (s) => new Set(s.map((e) => getComputedStyle(e).color)).size);
		check(tokens === 11, `by ${by}: the tokens show eleven colours`, tokens);
	}
}

async function checkBars(page, file) {
	await page.goto(url(file));
	const bars = await page.$$eval('.bar', (bs) => bs.map((b) => ({
		w: b.getBoundingClientRect().width,
		total: +b.closest('tr').cells[1].textContent,
		segs: [...b.children].map((s) => ({ w: s.getBoundingClientRect().width, title: s.title })),
	})));
	const bad = [];
	for (const b of bars) {
		let sum = 0, tokens = 0;
		for (const s of b.segs) {
			const n = +/: (\d+) tokens?, /.exec(s.title)[1];
			tokens += n;
			sum += s.w;
			if (Math.abs(s.w - b.w * n / b.total) > 0.5)
				bad.push(`${s.title}: ${s.w}px of ${b.w}px`);
		}
		if (tokens !== b.total || Math.abs(sum - b.w) > 1)
			bad.push(`${b.segs.map((s) => s.title)}: ${tokens} of ${b.total} tokens, ${sum}px of ${b.w}px`);
	}
	check(bars.length > 0 && bad.length === 0,
		`${path.basename(path.dirname(file))}/${path.basename(file)}: the ${bars.length} bars are as wide as the shares`, bad.join('; '));
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
	await page.screenshot({ path: path.join(opt.shots, 't0410-add.png'), fullPage: true });
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
	await page.screenshot({ path: path.join(opt.shots, 't0410-commit-colours.png'), fullPage: true });
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
		const on = await page.$$eval('#code .t.on', (s) => s.map((e) => e.textContent).join(' '));
		check(on === opt['legend-tokens'], `hovering ${opt['legend-author']}'s row marks exactly their tokens`,
			`marked: ${on}`);
		check(await page.evaluate(() => document.body.classList.contains('hl')), 'the body has class hl meanwhile');
		await page.screenshot({ path: path.join(opt.shots, 't0410-legend.png'), fullPage: true });
		await rest(page);
		check((await page.locator('.t.on').count()) === 0, 'leaving the row unmarks them');
		await row.click();
		await rest(page);
		check((await page.locator('.t.on').count()) > 0, 'a click on the row keeps them marked');
		await row.click();
		await rest(page);
		check((await page.locator('.t.on').count()) === 0, 'a second click releases them');
	}

	// ---- the gutter, and the links of the tokens ----
	await checkGutters(page, opt.gutter, path.basename(opt.page));
	await checkTokenLinks(page);

	// ---- a click goes to the commit ----
	await Promise.all([page.waitForURL((u) => u.href.startsWith('https://')), tipTok.click()]);
	check(commitHit === opt.url, `a click on ${opt['tip-token']} goes to ${opt.url}`, String(commitHit));
	check(commitHit !== null && commitHit.includes(opt['tip-id']), 'the target URL holds the original id');

	// ---- a long page: the legend stays, filters; the minimap, line anchors ----
	await checkLongPage(page);

	// ---- indexes: their bars; every link leads to a page that exists ----
	for (const [n, b] of opt.bars.entries()) {
		await checkBars(page, b);
		if (!n)
			await page.screenshot({ path: path.join(opt.shots, 't0410-dir.png'), fullPage: true });
	}
	for (const [n, idx] of opt.index.entries()) {
		await page.goto(url(idx));
		await page.screenshot({ path: path.join(opt.shots, `t0410-index-${n + 1}.png`), fullPage: true });
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
		const spans = page.locator('#code .t');
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
		const texts = await page.$$eval('#code .t', (s) => s.map((e) => e.textContent));
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
			await page.screenshot({ path: path.join(opt.shots, 't0410-hostile.png'), fullPage: true });
	}

	if (opt.crowd)
		await checkCrowd(page, opt.crowd);
	check(dialogs.length === 0, 'no dialog ever opened', dialogs.join('; '));
	const foreign = requests.filter((u) => !u.startsWith('file:') && u !== opt.url);
	check(foreign.length === 0, 'no request left file:// but the click on a token', foreign.join(' '));
	await browser.close();
}

run(main);
