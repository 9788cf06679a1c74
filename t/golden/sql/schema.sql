-- Schema for token views
/* Tables:
   views, tokens */
CREATE TABLE "token view" (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL DEFAULT 'it''s here',
    `size` BIGINT CHECK (size >= 0 AND size <> -1),
    body TEXT -- trailing comment
);
INSERT INTO "token view" (path, body) VALUES ('a\b.c', 'two
lines'), ('x', E'y');
SELECT id::text || ':' || path AS label, data->>'name'
FROM "token view" WHERE size != 1.5e-3 AND path LIKE '%.c';
