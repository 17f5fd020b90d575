// Front ends import LexiforgeReader alone: the format's schema, constants and stored values
// (lexicon entries, HMM tables, swipe layouts and features) come with it.
@_exported import LexiforgeFormat
