// The page's columns in the order they are read. style.css places #app's
// columns (.col-side, .col-main, …) in three columns, two or one by the
// width of the window, and names in --reading-order the order a reader
// sees them in there: down each column, the columns from left to right,
// then the rows below them. keepReadingOrder keeps the document in that
// order at every width, so that Tab and a screen reader follow the eye.
export function keepReadingOrder(app) {
  const follow = () => {
    const names = getComputedStyle(app).getPropertyValue("--reading-order").trim().split(/\s+/);
    const columns = names.map((name) => app.querySelector(`:scope > .col-${name}`));
    if (columns.every((col, i) => app.children[i] === col)) return;
    // The other columns move around the one that holds the focus, which
    // stays where it is and keeps it.
    const still = columns.find((col) => col.contains(document.activeElement)) ?? columns[0];
    const at = columns.indexOf(still);
    still.before(...columns.slice(0, at));
    still.after(...columns.slice(at + 1));
  };
  follow();
  addEventListener("resize", follow);
}
