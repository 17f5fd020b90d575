// zlib from the system (Debian: zlib1g-dev). Used to stream-decompress gzipped corpora and wordlists.
#include <zlib.h>
