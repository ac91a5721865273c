/// Which input claimed each of many string keys (the output plan claims every path of a set),
/// kept as the keys' hashes: a table of 8-byte hashes and 4-byte input numbers rather than
/// strings. A hit is confirmed by asking whether its owner really claims the key (the caller can
/// say, from what it holds anyway); the rare key whose hash another key already holds is kept
/// whole. So the answers are exact.
struct ClaimTable {
    private var byHash: [Int: UInt32] = [:]
    private var whole: [String: Int] = [:]
    private let hash: (String) -> Int

    /// `hash` is the key's hash: `hashValue` but in a test that makes keys meet. `capacity`: the
    /// claims expected, so that the table is made once rather than grown by doubling (each
    /// growth holds the old table beside the new one: the plan's peak).
    init(capacity: Int = 0, hash: @escaping (String) -> Int = { $0.hashValue }) {
        self.hash = hash
        byHash.reserveCapacity(capacity)
    }

    /// The input that claimed `key`; `claims` answers whether an input claims a key.
    func owner(of key: String, confirmedBy claims: (Int, String) -> Bool) -> Int? {
        if let owner = byHash[hash(key)].map(Int.init), claims(owner, key) { return owner }
        return whole.isEmpty ? nil : whole[key]
    }

    /// `key` claimed by input `owner`; the caller has found it unclaimed (`owner(of:)`).
    mutating func claim(_ key: String, by owner: Int) {
        let hash = hash(key)
        if byHash[hash] == nil { byHash[hash] = UInt32(owner) } else { whole[key] = owner }
    }
}
