/// The report's one stylesheet, inline: system fonts only (no web font is fetched), readable on
/// a phone (the charts scale to the width, tables scroll sideways), light and dark after the
/// reader's setting, and a print layout with a page per section.
///
/// Colours are Okabe and Ito's palette, which readers with any common colour-vision deficiency
/// tell apart (Okabe & Ito, "Color Universal Design", 2008): blue #0072B2, sky blue #56B4E9,
/// vermillion #D55E00, orange #E69F00, bluish green #009E73, reddish purple #CC79A7. Marks
/// never rely on colour alone: every chart has its numbers in a table, and legends name each
/// colour.
enum ReportStyle {
    static let css = """
    :root{--bg:#fff;--fg:#1b1b1b;--muted:#5b5b5b;--rule:#d8d8d8;--panel:#f6f6f4;\
    --s1:#0072B2;--s2:#56B4E9;--s3:#D55E00;--s4:#E69F00;--s5:#009E73;--s6:#CC79A7;--paper:#f3c4c4}
    @media (prefers-color-scheme:dark){:root{--bg:#141414;--fg:#ececec;--muted:#a8a8a8;--rule:#3a3a3a;--panel:#1f1f1f;\
    --s1:#56B4E9;--s2:#0072B2;--paper:#4a2a2a}}
    *{box-sizing:border-box}
    html{-webkit-text-size-adjust:100%}
    body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif}
    main{max-width:60rem;margin:0 auto;padding:1rem}
    header{border-bottom:1px solid var(--rule);margin-bottom:1rem}
    h1{font-size:1.7rem;margin:.5rem 0}
    h2{font-size:1.35rem;margin:2rem 0 .5rem;border-bottom:2px solid var(--rule)}
    h3{font-size:1.05rem;margin:1.25rem 0 .25rem}
    p.note,figcaption,.muted{color:var(--muted);font-size:.9rem}
    nav ul{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
    nav a{color:var(--s1)}
    figure{margin:.5rem 0 .25rem}
    article.chart{margin:0 0 1.25rem}
    svg.plot{width:100%;height:auto;display:block;background:var(--panel);border-radius:4px}
    svg text{fill:var(--fg);font-size:12px}
    svg .axis-label{font-size:13px;fill:var(--muted)}
    svg .grid line{stroke:var(--rule);stroke-width:1}
    svg .axis,svg .tick .mark{stroke:var(--muted);stroke-width:1}
    svg .bars rect,svg .bars path{fill:var(--s1)}
    svg .band polygon,svg .band line{fill:var(--s2);stroke:var(--s2);fill-opacity:.35;stroke-opacity:.6}
    svg .line polyline{fill:none;stroke:var(--s1);stroke-width:1.5}
    svg .dots.s1 circle{fill:var(--s1)}
    svg .dots.s3 circle{fill:var(--s3)}
    svg .range line{stroke:var(--muted);stroke-width:1}
    svg .stage-0{fill:none;stroke:var(--s4);stroke-width:1.5}
    svg .stage-1{fill:var(--s5)}
    svg .stage-2{fill:var(--s3)}
    svg .stage-3{fill:var(--s2)}
    svg .stage-4{fill:var(--s1)}
    svg .stage-5{fill:var(--s6)}
    svg .paper line{stroke:var(--paper);stroke-width:1}
    svg .trace{fill:none;stroke:var(--fg);stroke-width:1.2}
    svg.route{width:180px;height:180px;display:block}
    svg.route .map{fill:var(--panel);stroke:var(--rule)}
    svg.route .path{fill:none;stroke:var(--s3);stroke-width:2.5;stroke-linejoin:round;stroke-linecap:round}
    svg.route .start{fill:var(--s5)}
    svg.route .end{fill:var(--fg)}
    svg.route .scale{font-size:10px;fill:var(--muted)}
    .legend{display:flex;flex-wrap:wrap;gap:.25rem 1rem;padding:0;margin:.25rem 0;list-style:none;font-size:.9rem}
    .legend li::before{content:"";display:inline-block;width:.9em;height:.9em;margin-right:.35em;vertical-align:-.1em;background:var(--swatch);border:1px solid var(--swatch)}
    .legend .hollow::before{background:none;border:2px solid var(--swatch)}
    .routes{display:grid;grid-template-columns:repeat(auto-fill,minmax(180px,1fr));gap:.75rem}
    .routes figure{margin:0}
    .scroll{overflow-x:auto}
    table{border-collapse:collapse;font-size:.9rem;margin:.5rem 0;font-variant-numeric:tabular-nums}
    th,td{padding:.2rem .6rem;border-bottom:1px solid var(--rule);text-align:left;vertical-align:top}
    td.n,th.n,table.num td+td,table.num th+th{text-align:right}
    table.num th[scope=row]{white-space:nowrap}
    details{margin:.25rem 0 1rem}
    summary{cursor:pointer;color:var(--s1)}
    dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}
    dt{color:var(--muted)}
    dd{margin:0}
    @media (max-width:40rem){body{font-size:15px}main{padding:.6rem}svg.plot text{font-size:18px}svg.plot .axis-label{font-size:17px}svg.plot .tick text.alt{display:none}}
    @media print{
    :root{--bg:#fff;--fg:#000;--muted:#444;--rule:#bbb;--panel:#fff;--s1:#0072B2;--s2:#56B4E9;--paper:#f3c4c4}
    body{font-size:11pt}
    main{max-width:none;padding:0}
    nav{display:none}
    section{break-before:page}
    section:first-of-type{break-before:auto}
    article.chart,figure,tr{break-inside:avoid}
    details>summary{display:none}
    a{color:inherit;text-decoration:none}
    @page{margin:1.5cm}
    }
    """
}
