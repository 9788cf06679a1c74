"use strict";
module.exports = { re: /a|b/u, n: 0b11n };
