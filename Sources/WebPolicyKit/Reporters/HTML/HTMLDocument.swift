/// One self-contained HTML page: styles and script inline, nothing fetched from anywhere — a
/// reviewer opens it from a CI artifact, offline. Semantic headings, tables with captions and
/// header cells, labelled filter controls, and colours that keep a 4.5:1 contrast and are never
/// the only sign of a severity (WCAG 2.1 AA, which the CI check holds the pages to with axe).
/// The report's data rides along as JSON (`<script type="application/json" id="webpolicy-data">`),
/// for tools and for the check that the page's counts are the data's.
enum HTMLDocument {
    static func page(title: String, heading: String, verdict: String, failed: Bool, body: String, data: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title))</title>
        <style>
        \(style)
        </style>
        </head>
        <body>
        <header>
        <h1>\(escape(heading))</h1>
        <p class="verdict \(failed ? "verdict-failed" : "verdict-passed")">\(escape(verdict))</p>
        </header>
        <main>
        \(body)
        </main>
        <footer><p>webpolicy \(escape(WebPolicyVersion.current))</p></footer>
        <script type="application/json" id="webpolicy-data">\(scriptSafe(data))</script>
        <script>
        \(script)
        </script>
        </body>
        </html>

        """
    }

    /// Text and attribute values: the five characters HTML gives meaning to.
    static func escape(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default: output.append(character)
            }
        }
        return output
    }

    /// JSON inside `<script>`: `</` would end the element early; `<\/` is the same JSON string.
    static func scriptSafe(_ json: String) -> String {
        json.replacingOccurrences(of: "</", with: "<\\/").replacingOccurrences(of: "<!--", with: "<\\!--")
    }

    /// A severity as a badge: the word, not only the colour.
    static func badge(_ severity: String) -> String {
        "<span class=\"badge badge-\(escape(severity))\">\(escape(severity))</span>"
    }

    /// A filter bar over the elements of class `item` under `#items`: a select of the values of
    /// their `data-kind` and a text search, and a live count of what is shown.
    static func filters(kinds: [String], kindLabel: String, noun: String, total: Int) -> String {
        let options = (["<option value=\"\">all</option>"] + kinds.map { "<option value=\"\(escape($0))\">\(escape($0))</option>" }).joined()
        return """
        <form class="filters" role="search" aria-label="Filter the \(escape(noun))" onsubmit="return false">
        <label for="filter-kind">\(escape(kindLabel))</label>
        <select id="filter-kind">\(options)</select>
        <label for="filter-text">Containing</label>
        <input id="filter-text" type="search">
        <p id="filter-shown" aria-live="polite" data-noun="\(escape(noun))">Showing \(total) of \(total) \(escape(noun))</p>
        </form>
        """
    }

    static let style = """
    :root { color-scheme: light; --fg: #1b1b1b; --muted: #4a4a4a; --line: #c9c9c9; --error: #a4001b; --warning: #7a4a00; --info: #1d4f91; --ok: #1f6f2a; }
    * { box-sizing: border-box; }
    body { margin: 0 auto; max-width: 72rem; padding: 1rem 1.5rem 3rem; font: 16px/1.5 -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: var(--fg); background: #fff; }
    h1 { font-size: 1.6rem; margin: 0.5rem 0 0; }
    h2 { font-size: 1.3rem; margin: 2rem 0 0.5rem; border-bottom: 1px solid var(--line); }
    h3 { font-size: 1.1rem; margin: 1.5rem 0 0.5rem; word-break: break-all; }
    h4 { font-size: 1rem; margin: 0 0 0.25rem; }
    a { color: #0b4f9e; }
    a:focus, input:focus, select:focus, summary:focus { outline: 3px solid #0b4f9e; outline-offset: 2px; }
    code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9rem; }
    pre { background: #f4f4f4; border: 1px solid var(--line); padding: 0.5rem 0.75rem; overflow-x: auto; white-space: pre; }
    table { border-collapse: collapse; margin: 0.5rem 0 1rem; }
    caption { text-align: left; font-weight: 600; padding: 0.25rem 0; }
    th, td { border: 1px solid var(--line); padding: 0.3rem 0.6rem; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
    thead th { background: #efefef; }
    td.number { text-align: right; font-variant-numeric: tabular-nums; }
    .verdict { font-size: 1.15rem; font-weight: 600; margin: 0.25rem 0 0; }
    .verdict-failed { color: var(--error); }
    .verdict-passed { color: var(--ok); }
    .badge { display: inline-block; min-width: 4.5rem; text-align: center; border: 1px solid currentColor; border-radius: 0.25rem; padding: 0 0.35rem; font-size: 0.85rem; font-weight: 600; }
    .badge-error, .badge-block, .badge-failed { color: var(--error); }
    .badge-warning, .badge-upgrade, .badge-changed { color: var(--warning); }
    .badge-info, .badge-intercept { color: var(--info); }
    .badge-allow, .badge-passed, .badge-exercised { color: var(--ok); }
    .item { border-left: 4px solid var(--line); padding: 0.5rem 0 0.5rem 0.75rem; margin: 0.75rem 0; }
    .item[data-kind="error"], .item[data-kind="failed"] { border-left-color: var(--error); }
    .item[data-kind="warning"] { border-left-color: var(--warning); }
    .item[data-kind="info"] { border-left-color: var(--info); }
    .muted { color: var(--muted); }
    .filters { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; background: #f7f7f7; border: 1px solid var(--line); padding: 0.5rem 0.75rem; }
    .filters p { margin: 0; color: var(--muted); }
    .tags { font-size: 0.85rem; color: var(--muted); }
    .places { columns: 2 24rem; margin: 0.25rem 0; }
    [hidden] { display: none !important; }
    """

    static let script = """
    (function () {
      var kind = document.getElementById("filter-kind");
      var text = document.getElementById("filter-text");
      var shown = document.getElementById("filter-shown");
      if (!kind || !text || !shown) { return; }
      var items = Array.prototype.slice.call(document.querySelectorAll("#items .item"));
      var groups = Array.prototype.slice.call(document.querySelectorAll("#items .group"));
      function apply() {
        var wanted = kind.value;
        var needle = text.value.toLowerCase();
        var count = 0;
        var total = 0;
        items.forEach(function (item) {
          // A folded finding stands for the places it lists.
          var weight = parseInt(item.getAttribute("data-count") || "1", 10);
          var visible = (!wanted || item.getAttribute("data-kind") === wanted) && (!needle || item.textContent.toLowerCase().indexOf(needle) >= 0);
          item.hidden = !visible;
          total += weight;
          if (visible) { count += weight; }
        });
        groups.forEach(function (group) {
          var members = group.querySelectorAll(".item");
          var any = false;
          for (var i = 0; i < members.length; i += 1) { if (!members[i].hidden) { any = true; } }
          group.hidden = members.length > 0 && !any;
        });
        shown.textContent = "Showing " + count + " of " + total + " " + shown.getAttribute("data-noun");
      }
      kind.addEventListener("change", apply);
      text.addEventListener("input", apply);
      apply();
    })();
    """
}
