import CLibcrypto

/// SHA-256 of bytes in memory (``ByteSource`` digests files as it reads them).
public enum ByteDigest {
    /// Lowercase hex SHA-256 of `bytes`.
    public static func sha256(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { raw in
            EVP_Digest(raw.baseAddress, raw.count, &digest, &length, EVP_sha256(), nil)
        }
        precondition(ok == 1, "libcrypto could not compute a SHA-256 digest")
        return digest.prefix(Int(length)).map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
