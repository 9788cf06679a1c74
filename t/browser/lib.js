// What the browser checks share: their arguments, the TAP-like "ok - " and
// "FAIL - " lines, headless Chromium, and the exit status.
'use strict';

const { chromium } = require('playwright-core');

// --KEY VALUE pairs into an object; the keys of `multi` collect arrays.
function parseArgs(argv, multi, prog) {
	const opt = {};
	for (const k of multi) opt[k] = [];
	for (let i = 0; i < argv.length; i += 2) {
		const k = argv[i].replace(/^--/, ''), v = argv[i + 1];
		if (v === undefined) {
			console.error(`${prog}: ${argv[i]} needs a value`);
			process.exit(2);
		}
		if (multi.includes(k)) opt[k].push(v); else opt[k] = v;
	}
	return opt;
}

let failed = 0;
function check(ok, what, detail) {
	if (ok) {
		console.log(`ok - ${what}`);
	} else {
		failed++;
		console.log(`FAIL - ${what}${detail !== undefined ? ': ' + detail : ''}`);
	}
}

// Debian's Chromium, headless, with nothing of its own that reaches the network.
function launch() {
	return chromium.launch({
		executablePath: '/usr/bin/chromium',
		headless: true,
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
			'--disable-background-networking', '--disable-component-update', '--disable-sync'],
	});
}

// Runs main and exits: 0 when every check passed, 1 when one failed or main threw.
function run(main) {
	main().then(() => {
		console.log(failed ? `# ${failed} check(s) failed` : '# all checks passed');
		process.exit(failed ? 1 : 0);
	}, (e) => {
		console.log(`FAIL - ${e && e.stack ? e.stack : e}`);
		process.exit(1);
	});
}

module.exports = { parseArgs, check, launch, run };
