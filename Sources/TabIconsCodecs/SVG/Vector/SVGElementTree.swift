import TabIconsCore

/// An SVG document as a tree of elements with all their attributes, for the vector converter
/// (`VectorDrawingBuilder`). Built from one `SVGMarkupScanner` pass over bytes that have already
/// passed `SVGScreening` (entities refused, nesting and element counts bounded), so it never holds
/// more than the screening allowed. Text is kept only inside `<style>` (the style sheet).
struct SVGElementTree {
    struct Element {
        var name: String
        var attributes: [String: String]
        var children: [Int]
        var parent: Int?
    }

    private(set) var elements: [Element] = []
    /// The concatenated text of every `<style>` element, in document order.
    private(set) var styleSheet = ""
    /// Elements by `id` (the first of a repeated id wins, as in librsvg).
    private(set) var byID: [String: Int] = [:]

    var root: Int? { elements.isEmpty ? nil : 0 }

    init(_ bytes: UnsafeRawBufferPointer) throws(TabIconsError) {
        let b = bytes.bindMemory(to: UInt8.self)
        var stack: [Int] = []
        var styleDepth = 0
        var elements: [Element] = []
        var styleSheet = ""
        try SVGMarkupScanner.scan(b, allAttributes: true) { (event) throws(TabIconsError) in
            switch event {
            case .start(let name, let attributes, let selfClosing):
                var values: [String: String] = [:]
                for attribute in attributes where values[attribute.name] == nil { values[attribute.name] = attribute.value }
                let index = elements.count
                elements.append(Element(name: name, attributes: values, children: [], parent: stack.last))
                if let parent = stack.last { elements[parent].children.append(index) }
                if !selfClosing {
                    stack.append(index)
                    if name == "style" { styleDepth += 1 }
                }
            case .end:
                if let last = stack.popLast(), elements[last].name == "style" { styleDepth -= 1 }
            case .text(let range):
                if styleDepth > 0 {
                    styleSheet += SVGMarkupScanner.decodeReferences(b, range) + "\n"
                }
            case .doctype:
                break
            }
        }
        self.elements = elements
        self.styleSheet = styleSheet
        for (index, element) in elements.enumerated() {
            if let id = element.attributes["id"], byID[id] == nil { byID[id] = index }
        }
    }

    subscript(_ index: Int) -> Element { elements[index] }
}
