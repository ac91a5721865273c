import Foundation

extension Process {
    /// Runs the process as configured, to its end: its status and what it printed (standard
    /// output and standard error together, read before waiting, so a full pipe cannot stall it).
    package func statusAndOutput() throws -> (status: Int32, output: String) {
        let pipe = Pipe()
        standardOutput = pipe
        standardError = pipe
        try run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        waitUntilExit()
        return (terminationStatus, output)
    }
}
