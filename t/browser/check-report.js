#!/usr/bin/env node
// Checks a page of `tokstream report` in a real browser: headless Chromium
// (/usr/bin/chromium) driven by playwright-core (t/browser/node_modules).
//
//   node check-report.js --page FILE --shots DIR --chart LABEL...
//        [--text T]...      text the page must show as text (hostile names)
//
// Every chart named must be drawn (an SVG with that aria-label, of a
// visible size, with at least one bar of a visible height); the page loads
// nothing but itself, holds no script and opens no dialog.
// Prints "ok - ..." or "FAIL - ..." for every check; exits 1 when any failed.
'use strict';

const fs = require('fs');
const path = require('path');
const { pathToFileURL } = require('url');
const { parseArgs, check, launch, run } = require('./lib');

const opt = parseArgs(process.argv.slice(2), ['chart', 'text'], 'check-report.js');
if (!opt.page || !opt.shots || !opt.chart.length) {
	console.error('check-report.js: --page, --shots and at least one --chart are required');
	process.exit(2);
}

async function main() {
	const browser = await launch();
	const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
	const page = await context.newPage();
	const pageUrl = pathToFileURL(path.resolve(opt.page)).href;
	const dialogs = [], errors = [], requests = [];
	page.setDefaultTimeout(10000);
	context.on('request', (r) => requests.push(r.url()));
	await context.route((u) => u.href !== pageUrl, (route) => route.abort());
	page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss().catch(() => {}); });
	page.on('pageerror', (e) => errors.push(String(e)));
	fs.mkdirSync(opt.shots, { recursive: true });

	await page.goto(pageUrl);
	for (const label of opt.chart) {
		const drawn = await page.evaluate((label) => {
			const svg = [...document.querySelectorAll('svg')].find((s) => s.getAttribute('aria-label') === label);
			if (!svg) return 'no such chart';
			const box = svg.getBoundingClientRect();
			if (box.width < 50 || box.height < 50) return `drawn ${box.width}x${box.height}`;
			const bars = [...svg.querySelectorAll('rect')].filter((r) => r.querySelector('title'))
				.map((r) => r.getBoundingClientRect().height);
			if (!bars.length) return 'no bars';
			if (!bars.some((h) => h >= 1)) return 'every bar is flat';
			return '';
		}, label);
		check(drawn === '', `the chart "${label}" is drawn with visible bars`, drawn);
	}
	const scripts = await page.evaluate(() => document.querySelectorAll('script').length);
	check(scripts === 0, 'the page holds no script', `${scripts} script elements`);
	const shown = await page.evaluate(() => document.body.innerText);
	for (const t of opt.text)
		check(shown.includes(t), `the page shows "${t}" as text`);
	await page.screenshot({ path: path.join(opt.shots, 'report.png'), fullPage: true });
	check(requests.every((u) => u === pageUrl), 'the page loads nothing but itself',
		requests.filter((u) => u !== pageUrl).join(' '));
	check(dialogs.length === 0, 'no dialog ever opened', dialogs.join('; '));
	check(errors.length === 0, 'no script error', errors.join('; '));
	await browser.close();
}

run(main);
