// The stand-in renderer's reader features (scripts/book): the theme toggle,
// the collapsible sidebar, search, copy buttons, and keyboard navigation.
// Every page sets BOOK_ROOT (the relative path to the book's root) first.
(function () {
  "use strict";
  var root = window.BOOK_ROOT || "";
  var html = document.documentElement;
  var body = document.body;

  function stored(key) { try { return localStorage.getItem(key); } catch (e) { return null; } }
  function store(key, value) { try { localStorage.setItem(key, value); } catch (e) { /* private mode */ } }

  // ---- theme: the system's setting until the reader picks one
  var dark = window.matchMedia("(prefers-color-scheme: dark)");
  function applyTheme() {
    var chosen = stored("book-theme");
    var theme = chosen === "light" || chosen === "dark" ? chosen : (dark.matches ? "dark" : "light");
    html.classList.toggle("dark", theme === "dark");
    html.classList.toggle("light", theme === "light");
  }
  if (dark.addEventListener) dark.addEventListener("change", applyTheme);
  document.getElementById("theme-toggle").addEventListener("click", function () {
    store("book-theme", html.classList.contains("dark") ? "light" : "dark");
    applyTheme();
  });
  applyTheme();

  // ---- sidebar: hidden on request when wide, shown on request when narrow
  var wide = window.matchMedia("(min-width: 1001px)");
  var toggle = document.getElementById("sidebar-toggle");
  function sidebarShown() {
    return wide.matches ? !body.classList.contains("sidebar-hidden") : body.classList.contains("sidebar-open");
  }
  function showSidebar(show) {
    if (wide.matches) {
      body.classList.toggle("sidebar-hidden", !show);
      store("book-sidebar", show ? "shown" : "hidden");
    } else {
      body.classList.toggle("sidebar-open", show);
    }
    toggle.setAttribute("aria-expanded", String(show));
  }
  if (stored("book-sidebar") === "hidden") body.classList.add("sidebar-hidden");
  toggle.setAttribute("aria-expanded", String(sidebarShown()));
  toggle.addEventListener("click", function () { showSidebar(!sidebarShown()); });
  document.addEventListener("click", function (event) {   // a tap beside the open sidebar closes it
    if (!wide.matches && body.classList.contains("sidebar-open") &&
        !event.target.closest("#sidebar") && !event.target.closest("#sidebar-toggle")) showSidebar(false);
  });
  var active = document.querySelector("#sidebar a.active");
  if (active && active.scrollIntoView) active.scrollIntoView({ block: "center" });

  // ---- search: an index of every section, loaded on first use
  var panel = document.getElementById("search");
  var input = document.getElementById("search-input");
  var results = document.getElementById("search-results");
  var status = document.getElementById("search-status");
  var searchButton = document.getElementById("search-toggle");
  function openSearch(open) {
    panel.hidden = !open;
    searchButton.setAttribute("aria-expanded", String(open));
    if (!open) return;
    input.focus();
    if (!window.BOOK_SEARCH && !document.getElementById("search-index")) {
      var script = document.createElement("script");
      script.id = "search-index";
      script.src = root + "searchindex.js";
      script.onload = runSearch;
      document.head.appendChild(script);
    }
  }
  function escapeHtml(text) {
    return text.replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; });
  }
  function highlight(text, terms) {
    var out = escapeHtml(text);
    terms.forEach(function (term) {
      var pattern = new RegExp("(" + escapeHtml(term).replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + ")", "gi");
      out = out.replace(pattern, "<mark>$1</mark>");
    });
    return out;
  }
  function teaser(text, term) {
    var at = text.toLowerCase().indexOf(term);
    var start = Math.max(0, at - 60);
    return (start > 0 ? "\u2026" : "") + text.slice(start, start + 180) + (text.length > start + 180 ? "\u2026" : "");
  }
  var SHOWN_FIRST = 30;   // the best results; a button shows the rest
  function showHits(found, terms, from, to) {
    found.slice(from, to).forEach(function (hit) {
      var e = hit.entry, li = document.createElement("li");
      li.innerHTML = '<a href="' + root + e.u + '">' + highlight(e.h, terms) + "</a>" +
        '<span class="where">' + escapeHtml(e.t) + "</span>" +
        '<span class="teaser">' + highlight(teaser(e.x, terms[0]), terms) + "</span>";
      results.appendChild(li);
    });
  }
  function sections(n) { return n + " section" + (n === 1 ? "" : "s"); }
  function runSearch() {
    var query = input.value.trim().toLowerCase();
    results.innerHTML = "";
    var more = document.getElementById("search-more");
    if (more) more.remove();
    if (!query) { status.textContent = ""; return; }
    if (!window.BOOK_SEARCH) { status.textContent = "Loading the index\u2026"; return; }
    var terms = query.split(/\s+/);
    var found = [];
    window.BOOK_SEARCH.forEach(function (entry) {
      var heading = entry.h.toLowerCase(), text = entry.x.toLowerCase(), score = 0;
      for (var i = 0; i < terms.length; i++) {
        var inHeading = heading.indexOf(terms[i]) >= 0, inText = text.indexOf(terms[i]) >= 0;
        if (!inHeading && !inText) return;
        score += (inHeading ? 10 : 0) + (inText ? 1 : 0);
      }
      found.push({ entry: entry, score: score });
    });
    found.sort(function (a, b) { return b.score - a.score; });
    // The count says what the list shows: all of it, or the best part and a button for the rest.
    if (!found.length) {
      status.textContent = "Nothing found for \u201c" + input.value.trim() + "\u201d";
    } else if (found.length <= SHOWN_FIRST) {
      status.textContent = sections(found.length) + " found";
    } else {
      status.textContent = sections(found.length) + " found; the best " + SHOWN_FIRST + " shown";
    }
    showHits(found, terms, 0, SHOWN_FIRST);
    if (found.length > SHOWN_FIRST) {
      var button = document.createElement("button");
      button.id = "search-more";
      button.type = "button";
      button.className = "search-more";
      button.textContent = "Show the other " + (found.length - SHOWN_FIRST);
      button.addEventListener("click", function () {
        showHits(found, terms, SHOWN_FIRST, found.length);
        status.textContent = sections(found.length) + " found, all shown";
        button.remove();
      });
      results.parentNode.appendChild(button);
    }
  }
  searchButton.addEventListener("click", function () { openSearch(panel.hidden); });
  // A result on this very page only moves to its anchor: close the panel so that it covers nothing.
  results.addEventListener("click", function (event) { if (event.target.closest("a")) openSearch(false); });
  input.addEventListener("input", runSearch);
  input.addEventListener("keydown", function (event) {
    if (event.key === "Escape") { openSearch(false); searchButton.focus(); }
    if (event.key === "Enter") { var first = results.querySelector("a"); if (first) window.location.href = first.href; }
  });

  // ---- copy buttons
  // In a console session ("$ " lines), what to paste into a shell: the
  // commands without their prompts (and the lines a trailing "\" continues),
  // never the output the book shows under them.
  function copiedText(pre) {
    var lines = pre.innerText.replace(/\n$/, "").split("\n");
    if (!lines.some(function (line) { return /^\$ /.test(line); })) return lines.join("\n");
    var commands = [], continued = false;
    lines.forEach(function (line) {
      if (/^\$ /.test(line)) line = line.slice(2);
      else if (!continued) return;
      commands.push(line);
      continued = /\\$/.test(line);
    });
    return commands.join("\n");
  }
  Array.prototype.forEach.call(document.querySelectorAll("main pre"), function (pre) {
    var wrapper = document.createElement("div");
    wrapper.className = "code-block";
    pre.parentNode.insertBefore(wrapper, pre);
    wrapper.appendChild(pre);
    var button = document.createElement("button");
    button.className = "copy-button";
    button.type = "button";
    button.textContent = "Copy";
    button.setAttribute("aria-label", "Copy this code");
    button.addEventListener("click", function () {
      var text = copiedText(pre);
      function done(ok) {
        button.textContent = ok ? "Copied" : "Select and copy";
        setTimeout(function () { button.textContent = "Copy"; }, 1500);
      }
      function fallback() {
        var area = document.createElement("textarea");
        area.value = text;
        document.body.appendChild(area);
        area.select();
        var ok = false;
        try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
        area.remove();
        done(ok);
      }
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(function () { done(true); }, fallback);
      } else {
        fallback();
      }
    });
    wrapper.appendChild(button);
  });

  // ---- keyboard: arrows for the previous and next page, S or / for search
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable)) return;
    var link = null;
    if (event.key === "ArrowLeft") link = document.querySelector('.pager a[rel="prev"]');
    if (event.key === "ArrowRight") link = document.querySelector('.pager a[rel="next"]');
    if (link) { event.preventDefault(); window.location.href = link.href; return; }
    if (event.key === "s" || event.key === "/") { event.preventDefault(); openSearch(true); }
    if (event.key === "Escape" && !panel.hidden) openSearch(false);
  });
})();
