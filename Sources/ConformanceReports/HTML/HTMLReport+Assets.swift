import ConformanceModel
import Foundation

extension HTMLReport {

    /// The whole style sheet, inline: the report is one file that opens anywhere, offline.
    static let style = """
        :root { font: 14px/1.4 system-ui, sans-serif; color: #1d1d1f; background: #fafafa; }
        body { margin: 0 1.5em 3em; }
        h1 { font-size: 1.6em; margin: .8em 0 .2em; }
        code, pre, .id { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; }
        [hidden] { display: none !important; }
        .subjects { display: flex; flex-wrap: wrap; gap: 1em; margin: 1em 0; }
        .subject { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: .6em 1em; flex: 1 1 30rem; max-width: 60rem; }
        .subject p { margin: 0 0 .4em; }
        .subject summary { cursor: pointer; font-size: 12px; }
        .subject h2 { font-size: 1.15em; margin: 0 0 .3em; }
        .subject table { border-collapse: collapse; font-size: 12px; }
        .subject td { padding: 0 .8em 0 0; vertical-align: top; }
        .subject td:first-child { white-space: nowrap; }
        .legend, .filters { display: flex; flex-wrap: wrap; gap: .5em 1em; align-items: center; margin: .6em 0; }
        .filters { position: sticky; top: 0; z-index: 2; background: #fafafa; padding: .4em 0; border-bottom: 1px solid #ddd; }
        .v { display: inline-block; min-width: 5.5rem; text-align: center; border-radius: 3px; font-size: 11px; font-weight: 600;
             padding: 1px 0; color: #fff; }
        .v-PASS { background: #2e7d32; } .v-FAIL { background: #c62828; } .v-SKIP { background: #9e9e9e; }
        .v-ERROR { background: #6a1b9a; } .v-HANG { background: #ef6c00; } .v-FLAKY { background: #f9a825; color: #1d1d1f; }
        .v-CRASH { background: #4e0000; } .v-none { background: #fff; color: #777; border: 1px dashed #bbb; }
        .grid { display: grid; grid-template-columns: minmax(16rem, 28rem) 4.5rem repeat(var(--subjects), 6.5rem) minmax(10rem, 1fr);
                gap: .6rem; align-items: center; padding: 2px .4em; }
        .head { font-weight: 600; font-size: 12px; position: sticky; top: 2.6em; background: #fafafa; z-index: 1; }
        .head span { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        section.family h2 { font-size: 1.1em; margin: 1em 0 .2em; border-bottom: 2px solid #ccc; }
        details.case { scroll-margin-top: 5rem; }
        details.case > summary { cursor: pointer; list-style: none; border-bottom: 1px solid #eee; }
        details.case > summary:hover { background: #eef3ff; }
        details.case[open] > summary { background: #e3ebff; }
        .title { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; color: #444; }
        .panel { background: #fff; border: 1px solid #c5d3f5; border-top: 0; padding: .4em 1.2em 1em; margin-bottom: .6em; }
        .panel h3 { margin: .5em 0 .2em; font-size: 1.1em; }
        .panel h4 { margin: .8em 0 .2em; }
        .rule { border-left: 3px solid #90a4d4; padding-left: .8em; margin: .4em 0; }
        .rule p { margin: .2em 0; white-space: pre-line; }
        .observed { display: grid; grid-template-columns: 11em 1fr; gap: .2em 1em; margin: .3em 0 .8em; }
        .observed > b { font-weight: 600; color: #555; }
        .observed pre { margin: 0; white-space: pre-wrap; word-break: break-all; }
        .missing { color: #8a6d00; }
        #attention { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: .4em 1em .8em; margin: 1em 0; }
        #attention h2 { font-size: 1.15em; margin: .3em 0; }
        #attention h3 { font-size: 1em; margin: .8em 0 .2em; color: #c62828; }
        .counts { border-collapse: collapse; font-size: 12px; }
        .counts th, .counts td { padding: 2px .6em; text-align: center; } .counts td:first-child { text-align: left; }
        .failing .grid { border-bottom: 1px solid #eee; }
        .all-passed { color: #2e7d32; font-weight: 600; }
        table.journal { border-collapse: collapse; font-size: 12px; }
        table.journal th, table.journal td { border: 1px solid #ddd; padding: 1px .5em; text-align: left; vertical-align: top; }
        table.journal th { background: #f2f2f2; font-weight: 600; }
        """

    /// The filters, run in the browser. No report data lives in the script: every row carries its family, level,
    /// verdicts and whether they differ as escaped `data-` attributes, so the script is the same for every report.
    static let script = """
        (function () {
          const rows = Array.from(document.querySelectorAll("details.case"));
          const field = (id) => document.getElementById(id);
          function apply() {
            const verdict = field("f-verdict").value, family = field("f-family").value, level = field("f-level").value;
            const differs = field("f-differs").checked;
            let shown = 0;
            for (const row of rows) {
              const visible = (!verdict || row.dataset.verdicts.split(" ").includes(verdict))
                && (!family || row.dataset.family === family) && (!level || row.dataset.level === level)
                && (!differs || row.dataset.differs === "1");
              row.hidden = !visible;
              if (visible) shown += 1;
            }
            for (const section of document.querySelectorAll("section.family")) {
              section.hidden = !section.querySelector("details.case:not([hidden])");
            }
            field("shown").textContent = shown + " of " + rows.length + " cases shown";
          }
          for (const id of ["f-verdict", "f-family", "f-level", "f-differs"]) field(id).addEventListener("change", apply);
          // report.html?verdict=FAIL&family=retry&level=MUST&differs=1 opens with those filters set: a view worth sharing.
          const query = new URLSearchParams(location.search);
          for (const name of ["verdict", "family", "level"]) {
            const select = field("f-" + name), wanted = query.get(name);
            if (wanted !== null && Array.from(select.options).some((option) => option.value === wanted)) select.value = wanted;
          }
          field("f-differs").checked = query.get("differs") === "1";
          apply();
          // report.html#case-ID opens that case's panel: a link to one case is worth sharing.
          function openLinkedCase() {
            const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
            if (target && target.matches("details.case")) { target.open = true; target.scrollIntoView(); }
          }
          window.addEventListener("hashchange", openLinkedCase);
          openLinkedCase();
        })();
        """

    /// The page's content security policy: nothing from the network, and no script but ``script`` (named by its
    /// digest), so that even a string that escaped escaping could not run.
    static var contentSecurityPolicy: String {
        let digest = Data(SHA256.digest(Array(script.utf8))).base64EncodedString()
        return "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-\(digest)'"
    }
}
