import Foundation
import TabIcons
import TabIconsBatch

/// `tabicon-bench vector DIR...` (issue 21): `--vector` over folders of real SVG icons. For each
/// SVG (not recursive): normalized as each platform's default run does (the 25 pt box at 1×, 2×,
/// 3× for the asset catalog; Material's 24 dp at five densities for Android), then converted to
/// the SVG and to the VectorDrawable. Prints how many convert without fallback (and the features
/// that stopped the rest), the vector files' bytes against the PNG sets they replace, and the
/// conversion's time per icon (median and total, one thread; the normalization it follows, which
/// `--vector` also pays, beside it).
enum VectorBench {
    static let usage = "usage: tabicon-bench vector DIR..."

    struct Target {
        let name: String
        let target: VectorConversion.Target
        let options: NormalizeOptions
        var converted = 0
        var fallbacks: [String: Int] = [:]
        var vectorBytes = 0, pngBytes = 0
        var times: [Double] = []
        var normalizeTimes: [Double] = []
    }

    static func main(_ arguments: [String]) -> Int32 {
        let folders = Array(arguments.dropFirst())
        guard !folders.isEmpty, !folders.contains(where: { $0.hasPrefix("-") }) else {
            FileHandle.standardError.write(Data((usage + "\n").utf8))
            return 2
        }
        print(Machine.description)
        for folder in folders {
            let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
                .filter { $0.lowercased().hasSuffix(".svg") }.sorted()
            var targets = [
                Target(name: "asset catalog SVG", target: .svg, options: NormalizeOptions()),
                Target(
                    name: "VectorDrawable", target: .vectorDrawable,
                    options: NormalizeOptions(box: OutputLayout.android.defaultBox, scales: OutputLayout.android.defaultScales))
            ]
            var failed = 0
            for file in files {
                guard let data = FileManager.default.contents(atPath: folder + "/" + file) else { failed += 1; continue }
                for index in targets.indices {
                    let normalizer = Normalizer(options: targets[index].options)
                    let start = DispatchTime.now().uptimeNanoseconds
                    guard let icon = try? normalizer.normalize(data) else { failed += 1; break }
                    let middle = DispatchTime.now().uptimeNanoseconds
                    guard let result = try? normalizer.vectorFile(data, icon: icon, target: targets[index].target) else {
                        failed += 1; break
                    }
                    let end = DispatchTime.now().uptimeNanoseconds
                    targets[index].normalizeTimes.append(Double(middle - start) / 1e9)
                    targets[index].times.append(Double(end - middle) / 1e9)
                    switch result {
                    case .success(let bytes):
                        targets[index].converted += 1
                        targets[index].vectorBytes += bytes.count
                        targets[index].pngBytes += icon.renditions.reduce(0) {
                            $0 + ((try? OutputFormat.png.encode($1.bitmap).count) ?? 0)
                        }
                    case .failure(let unsupported):
                        targets[index].fallbacks[unsupported.feature.description, default: 0] += 1
                    }
                }
            }
            print("\n\(folder): \(files.count) SVGs\(failed > 0 ? ", \(failed) not decoded" : "")")
            for target in targets {
                let fellBack = target.fallbacks.values.reduce(0, +)
                let why = target.fallbacks.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.value) \($0.key)" }
                    .joined(separator: ", ")
                print("  \(target.name): \(target.converted) converted, \(fellBack) fell back\(why.isEmpty ? "" : " (\(why))")")
                if target.converted > 0 {
                    let ratio = Double(target.vectorBytes) / Double(max(1, target.pngBytes))
                    print(
                        "    bytes: vectors \(target.vectorBytes) (mean \(target.vectorBytes / target.converted)) against their PNG sets \(target.pngBytes) (mean \(target.pngBytes / target.converted)): \(String(format: "%.2f", ratio))×"
                    )
                }
                print(
                    "    conversion: median \(ms(median(target.times))) ms, total \(ms(target.times.reduce(0, +))) ms; the normalization before it: median \(ms(median(target.normalizeTimes))) ms"
                )
            }
        }
        return 0
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }

    static func ms(_ seconds: Double) -> String { String(format: "%.3f", seconds * 1000) }
}
