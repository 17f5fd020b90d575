// OpenSSL's libcrypto from the system (Debian: libssl-dev), for SHA-256 only: the digest of every
// corpus and wordlist as stored, for provenance and the manifest check. A system library instead
// of swift-crypto keeps a cold build from compiling BoringSSL.
#include <openssl/evp.h>
