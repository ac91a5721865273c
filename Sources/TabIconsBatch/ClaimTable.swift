/// Who claimed each of many string keys (the output plan claims every path of a set), kept as
/// the keys' hashes: 8 bytes a key rather than a string. A hit is confirmed by asking whether
/// its owner really claims the key (the caller can say, from what it holds anyway); the rare
/// key whose hash another key already holds is kept whole. So the answers are exact.
struct ClaimTable<Owner> {
    private var byHash: [Int: Owner] = [:]
    private var whole: [String: Owner] = [:]
    private let hash: (String) -> Int

    /// `hash` is the key's hash: `hashValue` but in a test that makes keys meet.
    init(hash: @escaping (String) -> Int = { $0.hashValue }) { self.hash = hash }

    /// Whoever claimed `key`; `claims` answers whether an owner claims a key.
    func owner(of key: String, confirmedBy claims: (Owner, String) -> Bool) -> Owner? {
        if let owner = byHash[hash(key)], claims(owner, key) { return owner }
        return whole.isEmpty ? nil : whole[key]
    }

    /// `key` claimed by `owner`; the caller has found it unclaimed (`owner(of:)`).
    mutating func claim(_ key: String, by owner: Owner) {
        let hash = hash(key)
        if byHash[hash] == nil { byHash[hash] = owner } else { whole[key] = owner }
    }
}
