import TabIconsCore
import TabIconsCodecs
import Foundation

/// The separable resampling kernels (SPEC §3), as functions of the distance from an output pixel's
/// centre, measured in source pixels at scale 1. When shrinking, `ResampleWeights` stretches the
/// kernel by the shrink factor so every source pixel contributes (no aliasing).
extension NormalizeOptions.Filter {
    /// Half-width of the kernel at scale 1: the kernel is zero at and beyond ±support.
    var support: Double {
        switch self {
        case .box: 0.5
        case .triangle: 1
        case .mitchell: 2
        case .lanczos3: 3
        }
    }

    /// The kernel's value at distance `x`. Unnormalized: `ResampleWeights` divides by the sum of
    /// the taps it actually uses, so truncation at the image edges keeps flat areas flat.
    func weight(at x: Double) -> Double {
        switch self {
        case .box:
            // Half-open so a source pixel lying exactly between two outputs counts once.
            return x > -0.5 && x <= 0.5 ? 1 : 0
        case .triangle:
            let ax = abs(x)
            return ax < 1 ? 1 - ax : 0
        case .mitchell:
            return Self.mitchellNetravali(abs(x), b: 1.0 / 3.0, c: 1.0 / 3.0)
        case .lanczos3:
            let ax = abs(x)
            if ax >= 3 { return 0 }
            return Self.sinc(ax) * Self.sinc(ax / 3)
        }
    }

    /// Mitchell–Netravali cubic; B = C = 1/3 is the pair its authors recommend (little ringing,
    /// little blur).
    private static func mitchellNetravali(_ x: Double, b: Double, c: Double) -> Double {
        if x < 1 {
            return ((12 - 9 * b - 6 * c) * x * x * x + (-18 + 12 * b + 6 * c) * x * x + (6 - 2 * b)) / 6
        }
        if x < 2 {
            return
                ((-b - 6 * c) * x * x * x + (6 * b + 30 * c) * x * x + (-12 * b - 48 * c) * x
                + (8 * b + 24 * c)) / 6
        }
        return 0
    }

    /// Normalized sinc: sin(πx)/(πx), 1 at 0.
    private static func sinc(_ x: Double) -> Double {
        if x == 0 { return 1 }
        let px = Double.pi * x
        return sin(px) / px
    }
}
