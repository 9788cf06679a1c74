#!/usr/bin/env run-cargo-script
//! Inner doc comment.
/// Outer doc comment.
/* block /* nested /* deeper */ still */ still outer */ fn f() {}
/** doc block */ /*! inner doc block */
/**/ /***/ /*/ not closed yet */
// line comment /* not a block
/* unterminated /* nested
