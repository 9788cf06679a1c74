/*
 * The options that every command reading a token repository takes alike
 * (html, report): where DEST and the source are, and the progress
 * display.  Parsed here once, so that the commands cannot come to spell
 * them differently.
 */
#ifndef DEST_OPTIONS_H
#define DEST_OPTIONS_H

/*
 * Takes argv[*i] when it is -C DEST, --source SRC, --source=SRC,
 * --progress or --no-progress (progress: 1 or 0), and the argument it
 * needs; 1 if taken.  -C or --source without its argument is not taken.
 */
int parse_dest_option(int argc, char **argv, int *i, const char **dest, const char **source, int *progress);

#endif
