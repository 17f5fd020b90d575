#!/bin/sh
# Recreates every fixture in this folder byte for byte (see README.md). Run from this folder.
set -eu

# tiny.txt: two paragraphs, 4 sentences, 18 word tokens (counts worked by hand in README.md).
printf 'The cat sat on the mat. The dog ran.\nIt was a good day.\n\nMy cat ran home.\n' > tiny.txt

# tiny-bom-crlf.txt: the same text with a UTF-8 byte order mark and CRLF line ends.
printf '\357\273\277The cat sat on the mat. The dog ran.\r\nIt was a good day.\r\n\r\nMy cat ran home.\r\n' > tiny-bom-crlf.txt

# tiny.txt.gz: the same text gzipped (-n: no name or time stamp, so the bytes are reproducible).
gzip -n -c tiny.txt > tiny.txt.gz

# tiny-two-members.txt.gz: two gzip members concatenated, split in the middle of line 1.
{ head -c 20 tiny.txt | gzip -n -c; tail -c +21 tiny.txt | gzip -n -c; } > tiny-two-members.txt.gz

# gutenberg-old.txt: old-edition header, body, "End of Project Gutenberg's" line, end marker, license.
printf '%s\n' \
  "The Project Gutenberg EBook of Tiny Tales, by Nobody" \
  "" \
  "This eBook is for the use of anyone anywhere at no cost and with" \
  "almost no restrictions whatsoever." \
  "" \
  "Title: Tiny Tales" \
  "" \
  "*** START OF THIS PROJECT GUTENBERG EBOOK TINY TALES ***" \
  "" \
  "The fox jumped. The hen slept." \
  "End of the story, said the hen." \
  "" \
  "End of Project Gutenberg's Tiny Tales, by Nobody" \
  "" \
  "*** END OF THIS PROJECT GUTENBERG EBOOK TINY TALES ***" \
  "" \
  "***** This file should be named 12345.txt or 12345.zip *****" \
  "Section 1. General Terms of Use and Redistributing Project" \
  "Gutenberg-tm electronic works. LICENSE TEXT." > gutenberg-old.txt

# gutenberg-new.txt: new-edition markers that wrap onto a second line (as in Sherlock Holmes).
printf '%s\n' \
  "The Project Gutenberg eBook of The Adventures of Sherlock Holmes, by Arthur Conan Doyle" \
  "" \
  "This eBook is for the use of anyone anywhere in the United States and" \
  "most other parts of the world at no cost." \
  "" \
  "*** START OF THE PROJECT GUTENBERG EBOOK THE ADVENTURES OF SHERLOCK" \
  "HOLMES ***" \
  "" \
  "Holmes smiled. Watson nodded." \
  "" \
  "*** END OF THE PROJECT GUTENBERG EBOOK THE ADVENTURES OF SHERLOCK" \
  "HOLMES ***" \
  "" \
  "Updated editions will replace the previous one--the old editions will" \
  "be renamed." \
  "" \
  "START: FULL LICENSE" \
  "THE FULL PROJECT GUTENBERG LICENSE, first book." \
  "" > gutenberg-new.txt

# gutenberg-two-books.txt: gutenberg-new.txt followed by a second book whose start marker
# "***START OF THE PROJECT GUTENBERG EBOOK SECOND" / "BOOK***" wraps (no space after ***).
{ cat gutenberg-new.txt; printf '%s\n' \
  "The Project Gutenberg eBook of Second Book, by Someone" \
  "" \
  "***START OF THE PROJECT GUTENBERG EBOOK SECOND" \
  "BOOK***" \
  "" \
  "Alice laughed. Bob waved." \
  "" \
  "***END OF THE PROJECT GUTENBERG EBOOK SECOND BOOK***" \
  "" \
  "THE FULL PROJECT GUTENBERG LICENSE, second book."; } > gutenberg-two-books.txt

# gutenberg-only.txt: nothing but boilerplate (the body is one blank line).
printf '%s\n' \
  "The Project Gutenberg EBook of Nothing, by Nobody" \
  "" \
  "*** START OF THIS PROJECT GUTENBERG EBOOK NOTHING ***" \
  "" \
  "*** END OF THIS PROJECT GUTENBERG EBOOK NOTHING ***" \
  "" \
  "Section 1. General Terms of Use. LICENSE TEXT." > gutenberg-only.txt

# invalid-utf8.txt: a lone Latin-1 byte E9 ("é") on line 3, at byte offset 35 (18 + 14 + 3).
printf 'Line one is fine.\nLine two too.\nCaf\351 au lait.\nThe end.\n' > invalid-utf8.txt

# binary.bin: NUL byte at byte offset 3.
printf 'ABC\000\001\002DEF\n' > binary.bin

# empty.txt: zero bytes.
: > empty.txt

# truncated.txt.gz: the first 40 bytes of tiny.txt.gz (the compressed stream ends early).
head -c 40 tiny.txt.gz > truncated.txt.gz

# classify/: six one-line reviews in labeled folders, and two LANG<TAB>sentence files.
mkdir -p classify/reviews/pos classify/reviews/neg
printf 'a wonderful , moving film with a great cast .\n' > classify/reviews/pos/cv000_1.txt
printf 'great fun and a great story ; i loved it .\n' > classify/reviews/pos/cv001_2.txt
printf 'the best film of the year , wonderful acting .\n' > classify/reviews/pos/cv002_3.txt
printf 'a dull , boring mess with a bad script .\n' > classify/reviews/neg/cv000_4.txt
printf 'bad acting and a boring story ; i hated it .\n' > classify/reviews/neg/cv001_5.txt
printf 'the worst film of the year , dull and bad .\n' > classify/reviews/neg/cv002_6.txt
printf 'en\tThe cat sat on the mat.\nfr\tLe chat est sur le tapis.\nen\tWhere is the station?\nfr\tOù est la gare ?\nen\tI like green tea.\nfr\tJ'"'"'aime le thé vert.\n' > classify/langid-tiny.tsv
printf 'en\tThe cat sat on the mat.\nfr Le chat est sur le tapis.\nen\tWhere is the station?\n\nen no tab here\n' > classify/langid-bad.tsv
