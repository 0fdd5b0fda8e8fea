import WebPolicyRuntime

/// A section a command adds to its HTML page after the findings (the audit's inventory): a
/// heading and tables, every cell escaped here, so no caller writes markup by hand.
public struct HTMLSection: Sendable {
    public struct Table: Sendable {
        public var caption: String
        public var headers: [String]
        public var rows: [[String]]
        /// Columns set in `<code>` (file:line, names, expressions).
        public var codeColumns: Set<Int>

        public init(caption: String, headers: [String], rows: [[String]], codeColumns: Set<Int> = []) {
            self.caption = caption
            self.headers = headers
            self.rows = rows
            self.codeColumns = codeColumns
        }
    }

    public var id: String
    public var title: String
    public var introduction: String?
    public var tables: [Table]

    public init(id: String, title: String, introduction: String? = nil, tables: [Table]) {
        self.id = id
        self.title = title
        self.introduction = introduction
        self.tables = tables
    }

    var markup: String {
        let e = HTMLDocument.escape
        var output = "<section aria-labelledby=\"\(e(id))\">\n<h2 id=\"\(e(id))\">\(e(title))</h2>\n"
        if let introduction { output += "<p>\(e(introduction))</p>\n" }
        for table in tables where !table.rows.isEmpty {
            output += "<table>\n<caption>\(e(table.caption)) (\(table.rows.count))</caption>\n<thead><tr>"
            output += table.headers.map { "<th scope=\"col\">\(e($0))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
            for row in table.rows {
                output += "<tr>" + row.enumerated().map { column, cell in
                    table.codeColumns.contains(column) && !cell.isEmpty ? "<td><code>\(e(cell))</code></td>" : "<td>\(e(cell))</td>"
                }.joined() + "</tr>\n"
            }
            output += "</tbody>\n</table>\n"
        }
        return output + "</section>\n"
    }
}
