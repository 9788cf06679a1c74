const f = require("f") as typeof import("f");
module.exports = f;
