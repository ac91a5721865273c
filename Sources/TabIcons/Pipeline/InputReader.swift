import Foundation

/// Reads an input file or stdin into memory, refusing more than the input limit before reading.
public enum InputReader {
    /// The bytes at `url`. A directory, a missing or unreadable file is an `io` error; a file
    /// larger than `limit` bytes is `tooLarge` without being read. Special files (a FIFO) are read
    /// to their end, up to the limit.
    public static func read(_ url: URL, limit: Int = DecodeOptions.Limits.default.maxInputBytes) throws(TabIconsError) -> Data {
        let path = url.path
        let handle: FileHandle
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            if attributes[.type] as? FileAttributeType == .typeDirectory {
                throw TabIconsError(.io, "is a directory", input: path)
            }
            if attributes[.type] as? FileAttributeType == .typeRegular,
               let size = attributes[.size] as? Int, size > limit {
                throw TabIconsError(.tooLarge, "input of \(size) bytes exceeds the limit of \(limit) bytes", input: path)
            }
            handle = try FileHandle(forReadingFrom: url)
        } catch let error as TabIconsError {
            throw error
        } catch {
            throw TabIconsError(.io, describe(error), input: path)
        }
        defer { try? handle.close() }
        return try readAll(handle, limit: limit, name: path)
    }

    /// All of standard input, up to `limit` bytes.
    public static func readStandardInput(limit: Int = DecodeOptions.Limits.default.maxInputBytes) throws(TabIconsError) -> Data {
        try readAll(FileHandle.standardInput, limit: limit, name: "-")
    }

    private static func readAll(_ handle: FileHandle, limit: Int, name: String) throws(TabIconsError) -> Data {
        var data = Data()
        while true {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: 1 << 20)
            } catch {
                throw TabIconsError(.io, describe(error), input: name)
            }
            guard let chunk, !chunk.isEmpty else { return data }
            data.append(chunk)
            if data.count > limit {
                throw TabIconsError(.tooLarge, "input exceeds the limit of \(limit) bytes", input: name)
            }
        }
    }

    /// The system's reason without Foundation's wrapping ("The file couldn't be opened" ...).
    static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
           underlying.domain == NSPOSIXErrorDomain, let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue)).lowercased()
        }
        if nsError.domain == NSPOSIXErrorDomain, let code = POSIXErrorCode(rawValue: Int32(nsError.code)) {
            return String(cString: strerror(code.rawValue)).lowercased()
        }
        return nsError.localizedDescription
    }
}
