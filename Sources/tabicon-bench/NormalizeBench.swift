import Foundation
import Synchronization
import TabIcons
import TabIconsBatch

/// `tabicon normalize`'s work without the file system (SPEC §7 `normalize`): decode, the 1×/2×/3×
/// renditions, and each encoded as PNG, from bytes already in memory. Icons/s on one core (one
/// thread, with the time split into decode / render / encode) and on all cores (one worker per
/// core taking the next icon, as `BatchNormalizer` does).
struct NormalizeBench {
    struct Figures {
        let icons: Int
        let renditions: Int
        let outputBytes: Int
        let oneCore: Double  // seconds per pass (median), wall
        let oneCoreCPU: Double  // the same passes in thread CPU seconds
        let allCores: Double
        let cores: Int
        let decode: Double  // seconds per pass on one core, by phase
        let render: Double
        let encode: Double
    }

    let inputs: CodecInputs
    let budget: Double
    let normalizer = Normalizer(options: NormalizeOptions())

    func run() -> Figures {
        let files = inputs.files
        var renditions = 0, outputBytes = 0
        var one: [Double] = [], oneCPU: [Double] = [], decode: [Double] = [], render: [Double] = [], encode: [Double] = []
        let start = now()
        while one.count < 3 || (now() - start < budget && one.count < 100) {
            var d = 0.0, r = 0.0, e = 0.0
            renditions = 0; outputBytes = 0
            let t0 = now()
            for file in files {
                let t1 = cpuNow()
                guard
                    let image = try? ImageDecoder.decode(
                        file.bytes,
                        options: DecodeOptions(
                            longestSideNeeded: normalizer.longestSideNeeded))
                else { continue }
                let t2 = cpuNow()
                guard let icon = try? normalizer.normalize(image) else { continue }
                let t3 = cpuNow()
                for rendition in icon.renditions {
                    outputBytes += (try? OutputFormat.png.encode(rendition.bitmap).count) ?? 0
                    renditions += 1
                }
                let t4 = cpuNow()
                d += t2 - t1; r += t3 - t2; e += t4 - t3
            }
            one.append(now() - t0)
            oneCPU.append(d + r + e)
            decode.append(d); render.append(r); encode.append(e)
        }

        let cores = ProcessInfo.processInfo.activeProcessorCount
        var all: [Double] = []
        let allStart = now()
        while all.count < 3 || (now() - allStart < budget && all.count < 100) {
            let next = Atomic<Int>(0)
            let t0 = now()
            DispatchQueue.concurrentPerform(iterations: cores) { _ in
                while true {
                    let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard index < files.count else { return }
                    guard let icon = try? normalizer.normalize(files[index].bytes) else { continue }
                    for rendition in icon.renditions { _ = try? OutputFormat.png.encode(rendition.bitmap) }
                }
            }
            all.append(now() - t0)
        }
        return Figures(
            icons: files.count, renditions: renditions, outputBytes: outputBytes,
            oneCore: median(one), oneCoreCPU: median(oneCPU), allCores: median(all), cores: cores,
            decode: median(decode), render: median(render), encode: median(encode))
    }

    static func text(_ f: Figures) -> String {
        let perIcon = { (seconds: Double) in String(format: "%.0f µs/icon", seconds / Double(f.icons) * 1e6) }
        return """
            \(f.icons) icons → \(f.renditions) PNG renditions (\(f.outputBytes) bytes), 1×/2×/3× of the 25 pt box
            one core:   \(String(format: "%8.1f", Double(f.icons) / f.oneCore)) icons/s  (by CPU time \(String(format: "%.1f", Double(f.icons) / f.oneCoreCPU)); decode \(perIcon(f.decode)), render \(perIcon(f.render)), encode \(perIcon(f.encode)))
            \(f.cores) cores: \(String(format: "%8.1f", Double(f.icons) / f.allCores)) icons/s  (×\(String(format: "%.2f", f.oneCore / f.allCores)))
            """
    }

    static func json(_ f: Figures) -> JSONValue {
        .object([
            ("icons", .int(f.icons)), ("renditions", .int(f.renditions)), ("outputBytes", .int(f.outputBytes)),
            ("oneCoreIconsPerSecond", .double(Double(f.icons) / f.oneCore)),
            ("oneCoreIconsPerCPUSecond", .double(Double(f.icons) / f.oneCoreCPU)),
            ("allCoresIconsPerSecond", .double(Double(f.icons) / f.allCores)), ("cores", .int(f.cores)),
            (
                "oneCoreSecondsPerPass",
                .object([
                    ("decode", .double(f.decode)), ("render", .double(f.render)),
                    ("encode", .double(f.encode))
                ])
            )
        ])
    }
}
