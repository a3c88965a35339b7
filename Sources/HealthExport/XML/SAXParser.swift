#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibXML2

extension ElementName {
    /// libxml2's NUL-terminated local name.
    init(_ pointer: UnsafePointer<xmlChar>) {
        self.init(bytes: UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))
    }
}

/// libxml2's push parser, hardened: no network (`XML_PARSE_NONET`), no external DTD, no entity
/// substitution (`XML_PARSE_NOENT` is never set) and libxml2's default size and depth limits
/// (`XML_PARSE_HUGE` is never set). Since the pre-filter blanks the DOCTYPE, no entity can be
/// declared at all.
///
/// Errors never cross C frames: a callback that fails stores its error and stops the parser;
/// `feed` rethrows it.
final class SAXParser: ElementEventSource {
    @exclusivity(unchecked) private var context: xmlParserCtxtPtr?
    /// The handler the callbacks reach, not reference-counted: through an `unowned` or strong
    /// reference every callback paid an atomic retain and release (about ten a record,
    /// callgrind). `keepsHandlerAlive` is what guarantees it outlives the parser.
    private unowned(unsafe) let handler: any ElementEventHandler
    private let keepsHandlerAlive: any ElementEventHandler
    /// A failure raised inside a callback, rethrown by `feed`/`finish`.
    @exclusivity(unchecked) private(set) var pendingError: (any Error)?
    /// libxml2's first error: message, line, column.
    @exclusivity(unchecked) private(set) var xmlError: (message: String, line: Int, column: Int, inputExhausted: Bool)?
    private var handlerTable = xmlSAXHandler()

    init(handler: any ElementEventHandler) {
        self.handler = handler
        keepsHandlerAlive = handler
        handlerTable.initialized = UInt32(XML_SAX2_MAGIC)
        // The callbacks borrow the parser (`_withUnsafeGuaranteedRef`) instead of retaining it:
        // libxml2 calls them only from `feed`/`finish`, while the caller holds the parser.
        handlerTable.startElementNs = { ctx, localname, _, _, _, _, attributeCount, _, attributes in
            guard let ctx, let localname else { return }
            Unmanaged<SAXParser>.fromOpaque(ctx)._withUnsafeGuaranteedRef { parser in
                guard !parser.stopRequested else { return parser.stopNow() }
                defer { if parser.stopRequested { parser.stopNow() } }
                let count = Int(attributeCount)
                if let attributes, AmpersandRepair.needed(attributes, count: count) {
                    AmpersandRepair.run(attributes, count: count) {
                        parser.handler.startElement(ElementName(localname), AttributeView(slots: attributes, count: count), parser)
                    }
                    return
                }
                parser.handler.startElement(ElementName(localname), AttributeView(slots: attributes, count: count), parser)
            }
        }
        handlerTable.endElementNs = { ctx, localname, _, _ in
            guard let ctx, let localname else { return }
            Unmanaged<SAXParser>.fromOpaque(ctx)._withUnsafeGuaranteedRef { parser in
                guard !parser.stopRequested else { return parser.stopNow() }
                defer { if parser.stopRequested { parser.stopNow() } }
                parser.handler.endElement(ElementName(localname), parser)
            }
        }
        handlerTable.characters = { ctx, bytes, length in
            guard let ctx, let bytes else { return }
            Unmanaged<SAXParser>.fromOpaque(ctx)._withUnsafeGuaranteedRef { parser in
                guard !parser.stopRequested else { return parser.stopNow() }
                defer { if parser.stopRequested { parser.stopNow() } }
                guard parser.handler.wantsCharacters else { return }
                parser.handler.characters(UnsafeRawBufferPointer(start: bytes, count: Int(length)), parser)
            }
        }
        handlerTable.serror = { ctx, error in
            guard let ctx, let error else { return }
            let parser = Unmanaged<SAXParser>.fromOpaque(ctx).takeUnretainedValue()
            parser.record(error.pointee)
        }
        // Entity declarations and external subsets: refuse by not handling them at all.
        handlerTable.resolveEntity = nil
        handlerTable.externalSubset = nil
        handlerTable.entityDecl = nil
        let userData = Unmanaged.passUnretained(self).toOpaque()
        context = xmlCreatePushParserCtxt(&handlerTable, userData, nil, 0, nil)
        if let context {
            xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue))
        }
    }

    deinit {
        if let context {
            if context.pointee.myDoc != nil { xmlFreeDoc(context.pointee.myDoc) }
            xmlFreeParserCtxt(context)
        }
    }

    /// The current position (1-based), as libxml2 counts it.
    var line: Int {
        guard let input = context?.pointee.input else { return 0 }
        return Int(input.pointee.line)
    }

    var column: Int {
        guard let input = context?.pointee.input else { return 0 }
        return Int(input.pointee.col)
    }

    /// Sets the position libxml2 counts from, for the bytes it is given next.
    ///
    /// healthport's scanner reads the body while libxml2 waits inside the root element; when the
    /// scanner hands the rest of the document back (`ExportBodyScanner`), libxml2 resumes there
    /// and must count lines and columns as if it had read the bytes in between itself, so that
    /// what it reports is located as a libxml2-only read locates it. libxml2 keeps the position
    /// in the public fields `line` and `col` of its current input.
    func resume(atLine line: Int, column: Int) {
        guard let input = context?.pointee.input else { return }
        input.pointee.line = Int32(clamping: line)
        input.pointee.col = Int32(clamping: column)
    }

    /// Bytes libxml2 has consumed.
    var byteOffset: Int64 {
        guard let context else { return 0 }
        return Int64(xmlByteConsumed(context))
    }

    /// Set when parsing must stop; the stop itself waits until the callback that asked for it
    /// has returned (see `stopNow`).
    @exclusivity(unchecked) private(set) var stopRequested = false
    @exclusivity(unchecked) private var stopped = false

    /// Stops parsing with an error raised in a callback; `feed` rethrows it.
    ///
    /// `xmlStopParser` frees the input buffer that attribute values point into, so it must not
    /// run while a handler still reads them (found by `Scripts/fuzz.sh export`: a bad date in
    /// the middle of an element's attributes was followed by a read of freed memory).
    func stop(with error: any Error) {
        if pendingError == nil { pendingError = error }
        stopRequested = true
    }

    /// Halts libxml2, once, outside any handler's use of its buffers.
    fileprivate func stopNow() {
        guard !stopped, let context else { return }
        stopped = true
        xmlStopParser(context)
    }

    /// Whether libxml2 stands at the end of what it was given, or only white space from it: an
    /// error found there is about the document ending (cut off), whenever libxml2 reports it.
    ///
    /// libxml2 waits for a tag's `>` before it parses the tag, and where it looks for one
    /// depends on where the pieces it was given end; so an error in the middle of the document
    /// can be reported only when the input ends. What it says about, and the file's place it
    /// names, depend on the bytes alone; this flag must too (found by `Fuzz/scanner`: the same
    /// document in other pieces was called cut off).
    private var inputExhausted: Bool {
        guard let input = context?.pointee.input, var cur = input.pointee.cur, let end = input.pointee.end else { return true }
        while cur < end {
            let c = cur.pointee
            guard c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D else { return false }
            cur += 1
        }
        return true
    }

    private func record(_ error: xmlError) {
        guard error.level.rawValue >= XML_ERR_ERROR.rawValue, xmlError == nil else { return }
        var message = error.message.map { String(cString: $0) } ?? "XML error \(error.code)"
        while message.last == "\n" || message.last == " " { message.removeLast() }
        xmlError = (message, Int(error.line), Int(error.int2), inputExhausted)
        // libxml2 is inside its own error path here; the next callback, or `feed`, stops it.
        stopRequested = true
    }

    /// Pushes bytes. Throws the callback's error, or a `malformedXML` failure carrying
    /// libxml2's message and position (`ExportReader` adds the file name).
    func feed(_ bytes: UnsafeRawBufferPointer, terminate: Bool = false) throws {
        guard let context else { throw ExportError(.ioError, "cannot create the XML parser") }
        var offset = 0
        // xmlParseChunk takes an Int32 length.
        repeat {
            let length = min(bytes.count - offset, 1 << 30)
            let isLastPiece = offset + length >= bytes.count
            let base = bytes.baseAddress.map { $0.assumingMemoryBound(to: CChar.self) + offset }
            _ = xmlParseChunk(context, base, Int32(length), (terminate && isLastPiece) ? 1 : 0)
            if stopRequested { stopNow() }
            if let pendingError { throw pendingError }
            if let xmlError { throw XMLSyntaxError(message: xmlError.message, line: xmlError.line, column: xmlError.column) }
            offset += length
        } while offset < bytes.count
    }

    /// Tells libxml2 the input has ended. An error found where the input ends means the
    /// document stopped before it was complete: the usual sign of an export cut off in transfer.
    func finish() throws {
        do {
            try feed(UnsafeRawBufferPointer(start: nil, count: 0), terminate: true)
        } catch var error as XMLSyntaxError {
            error.atEndOfInput = xmlError?.inputExhausted ?? true
            throw error
        }
    }
}

/// libxml2's report that the XML is not well-formed, before the reader adds the file name.
struct XMLSyntaxError: Error {
    var message: String
    var line: Int
    var column: Int
    /// Raised when the input ended, not at a bad byte: the document is incomplete.
    var atEndOfInput = false

    /// libxml2's message, with the likely cause when the input ended early.
    var explained: String {
        atEndOfInput ? "the document ends before it is complete (cut off?): \(message)" : message
    }

    /// The message with the line numbers libxml2 writes into it (`… MetadataEntry line 134 and
    /// Record`) moved by `offset`: a parallel read parses a chunk after a copy of the prolog, so
    /// libxml2's lines are not the file's. Lines up to `unmoved` are the copied prolog's, which
    /// are the file's own: the root's start tag (`… HealthData line 22 and Record`) stays where
    /// it is (it was moved, and a parallel read named another line than a sequential one; found
    /// by `Fuzz/export`).
    func explained(shiftingLinesBy offset: Int, unmoved: Int = 0) -> String {
        guard offset != 0 else { return explained }
        var result = ""
        var rest = Substring(explained)
        while let range = rest.range(of: " line ") {
            result += rest[..<range.upperBound]
            rest = rest[range.upperBound...]
            let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
            if let number = Int(digits) {
                result += String(number > unmoved ? number + offset : number)
                rest = rest.dropFirst(digits.count)
            }
        }
        return result + rest
    }
}

/// libxml2 without entity substitution (never enabled here, see `SAXParser`) hands attribute
/// values over with `&amp;` (and `&#38;`) as the five characters `&#38;`, so that a tree could be
/// serialized again; every other reference arrives decoded. A literal `&` can reach an
/// attribute value no other way, so every `&#38;` in a value stands for one `&`.
///
/// The hot path only pays a `memchr` per value; a value holding `&` is decoded into a private
/// buffer that the attribute array points at while the handler runs, and libxml2's own pointers
/// are put back before it frees them.
enum AmpersandRepair {
    static func needed(_ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>, count: Int) -> Bool {
        for i in 0..<count {
            guard let start = attributes[i * 5 + 3], let end = attributes[i * 5 + 4] else { continue }
            if memchr(start, 0x26, start.distance(to: end)) != nil { return true }
        }
        return false
    }

    static func run(_ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>, count: Int, _ body: () -> Void) {
        var saved: [(index: Int, start: UnsafePointer<xmlChar>?, end: UnsafePointer<xmlChar>?)] = []
        var buffers: [UnsafeMutablePointer<xmlChar>] = []
        let marker = Array("&#38;".utf8)
        for i in 0..<count {
            guard let start = attributes[i * 5 + 3], let end = attributes[i * 5 + 4] else { continue }
            let length = start.distance(to: end)
            guard memchr(start, 0x26, length) != nil else { continue }
            let decoded = UnsafeMutablePointer<xmlChar>.allocate(capacity: max(length, 1))
            var j = 0
            var k = 0
            while j < length {
                if start[j] == 0x26, j + 5 <= length, (0..<5).allSatisfy({ start[j + $0] == marker[$0] }) {
                    decoded[k] = 0x26
                    j += 5
                } else {
                    decoded[k] = start[j]
                    j += 1
                }
                k += 1
            }
            saved.append((i, start, end))
            buffers.append(decoded)
            attributes[i * 5 + 3] = UnsafePointer(decoded)
            attributes[i * 5 + 4] = UnsafePointer(decoded + k)
        }
        body()
        for entry in saved {
            attributes[entry.index * 5 + 3] = entry.start
            attributes[entry.index * 5 + 4] = entry.end
        }
        for buffer in buffers { buffer.deallocate() }
    }
}
