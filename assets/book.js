// Entry point of every page: boots the runtime once, then makes each widget live.
// Until then (or if the runtime cannot load) the pre-rendered numbers stay on the page.
// Moving to another chapter keeps the runtime (navigate.js): its widgets go live at once.
import { enableNavigation } from "./navigate.js";
import { enablePopovers } from "./popover.js";
import { enableExport, showProgress } from "./progress.js";
import { enableReading } from "./reading.js";
import { bootRuntime, connect, retry } from "./runtime.js";
import { firstView, setState } from "./widgets/common.js";
import { keepTextReadable } from "./widgets/text-size.js";

const siteRoot = new URL(document.querySelector('meta[name="tbook-root"]').content, document.baseURI);

// The notice above the chapter; with `again`, a 重试 button that calls it.
function showNotice(message, again) {
  const notice = document.querySelector(".runtime-notice");
  if (!notice) return;
  notice.textContent = message;
  if (again) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.action = "retry-runtime";
    button.textContent = "重试";
    button.addEventListener("click", again, { once: true });
    notice.append(" ", button);
  }
  notice.hidden = false;
}

function hideNotice() {
  const notice = document.querySelector(".runtime-notice");
  if (notice) notice.hidden = true;
}

const dataFilesOf = (root) => root.dataset.files?.split(" ") ?? [];

// Widgets are mounted one per task, yielding to the browser in between: a chapter's widgets
// going live never hold the main thread in one long task (a tap or a scroll waits at most for
// one mount, and Total Blocking Time stays low).
const yieldToBrowser = () => (globalThis.scheduler?.yield ? scheduler.yield()
  : new Promise((resolve) => setTimeout(resolve, 0)));
let mounting = Promise.resolve();
function inTurn(work) {
  const run = mounting.then(yieldToBrowser).then(work);
  mounting = run.catch(() => {});
  return run;
}

async function mountAll(roots, modules, runtime) {
  await Promise.all(roots.map(async (root, i) => {
    try {
      const module = await modules[i];
      await runtime.addDataFiles(dataFilesOf(root));
      await inTurn(() => module.mount(root, runtime));
      await firstView(root);  // live (liveWidget sets the state) once its first view is drawn
    } catch (err) {
      console.error(err);
      setState(root, "error", `这个小部件出错了：${err.message}；显示的是构建时算好的数字。`);
    }
  }));
}

// The service worker keeps the runtime and the pages the reader opens, for later chapters and
// offline reading. Registered after the runtime booted, so its precache reuses what the page
// just downloaded. A reader who saves data (Save-Data) gets nothing fetched in the background:
// the worker is told by its address, which it reads before it installs.
function registerServiceWorker() {
  if (!("serviceWorker" in navigator) || location.protocol !== "http:" && location.protocol !== "https:") return;
  const script = new URL("sw.js", siteRoot);
  if (navigator.connection?.saveData) script.search = "save-data=1";
  navigator.serviceWorker.register(script).then(() => navigator.serviceWorker.ready)
    .then(offerWholeBook).catch((err) => console.warn("service worker:", err));
}

const megabytes = (bytes) => Math.max(1, Math.round(bytes / 1e6));

// The contents page's offer to keep the whole book for offline reading (or to free it): the
// service worker fetches it, reporting each file, and remembers the choice.
function offerWholeBook(registration) {
  const box = document.querySelector(".keep-book");
  if (!box || !registration.active) return;
  const button = box.querySelector("button");
  const status = box.querySelector("[aria-live]");
  let kept = false;
  const ask = (op, onReply) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = ({ data }) => onReply(data);
    registration.active.postMessage({ op }, [port2]);
  };
  const show = ({ chosen, bytes }) => {
    kept = chosen;
    button.textContent = chosen ? `删除离线保存的整本书（释放约 ${megabytes(bytes)} MB）`
      : `离线阅读整本书（约 ${megabytes(bytes)} MB）`;
    button.disabled = false;
    box.hidden = false;
  };
  ask("status", show);
  button.addEventListener("click", () => {
    button.disabled = true;
    status.textContent = kept ? "正在删除……" : "正在下载整本书……";
    ask(kept ? "free-book" : "keep-book", (reply) => {
      if (reply.total) {
        status.textContent = `正在下载：${reply.done} / ${reply.total} 个文件`;
      } else if (reply.error) {
        status.textContent = `没能下载完（${reply.error}）。已下载的部分留着，再按一次接着下载。`;
        button.disabled = false;
      } else {
        show(reply);
        status.textContent = reply.chosen ? "整本书已保存：离线时每一节都能打开，小部件照常计算。"
          : "已删除离线保存的整本书，只留下你打开过的页面。";
      }
    });
  });
}

// Printing shows every widget's figure as it is now: open the folded parts of the text, but
// not a widget's 数值 tables (the figure and its key numbers are what a printed page needs).
function preparePrint() {
  const closed = [];
  addEventListener("beforeprint", () => {
    document.querySelectorAll("details:not([open]):not(.numbers)").forEach((d) => { d.open = true; closed.push(d); });
  });
  addEventListener("afterprint", () => { closed.splice(0).forEach((d) => { d.open = false; }); });
}

function themeToggle() {
  const button = document.querySelector("[data-action=theme]");
  if (!button) return;
  const names = { auto: "跟随系统", light: "浅色", dark: "深色" };
  const order = ["auto", "light", "dark"];
  const show = () => {
    const theme = document.documentElement.dataset.theme || "auto";
    button.textContent = `主题：${names[theme]}`;
  };
  button.addEventListener("click", () => {
    const now = document.documentElement.dataset.theme || "auto";
    const next = order[(order.indexOf(now) + 1) % order.length];
    if (next === "auto") {
      delete document.documentElement.dataset.theme;
      localStorage.removeItem("tbook-theme");
    } else {
      document.documentElement.dataset.theme = next;
      localStorage.setItem("tbook-theme", next);
    }
    show();
  });
  show();
}

// Every exercise inside `container` (assets/exercise.js): it runs the reader's code in a Python
// of its own, so it needs nothing booted to start.
function mountExercises(container) {
  const roots = [...container.querySelectorAll("[data-exercise]")];
  if (!roots.length) return;
  import("./exercise.js").then(({ mount }) => roots.forEach((root) => mount(root, bootRuntime)),
                               (err) => console.error("exercises:", err));
}

// Every widget inside `container`: loading -> live (or error, keeping the static numbers).
function makeLive(container) {
  mountExercises(container);
  keepTextReadable(container);
  const roots = [...container.querySelectorAll("[data-widget]")];
  if (!roots.length) return Promise.resolve();
  roots.forEach((root) => setState(root, "loading"));
  // The widgets' front-end modules load while the runtime boots, not after it.
  const modules = roots.map((root) => import(`./widgets/${root.dataset.widget}.js`));
  modules.forEach((m) => m.catch(() => {}));  // reported per widget in mountAll
  connect().addDataFiles(roots.flatMap(dataFilesOf)).catch(() => {});  // likewise
  return bootRuntime().then((runtime) => mountAll(roots, modules, runtime), (err) => {
    console.error(err);
    const noWasm = typeof WebAssembly === "undefined";
    const why = noWasm ? "这个浏览器不支持 WebAssembly" : err.message;
    roots.forEach((root) => setState(root, "error", "构建时算好的数字（交互计算不可用）"));
    document.documentElement.dataset.runtime = "unavailable";
    // A failed download may be the network's or the host's: try again on request, and by
    // itself when the browser says it is back online. (The failed worker closed itself.)
    const again = noWasm ? null : () => {
      removeEventListener("online", again);
      hideNotice();
      delete document.documentElement.dataset.runtime;
      retry();
      makeLive(container);
    };
    if (again) addEventListener("online", again);
    showNotice(`页面上的交互部分没能启动（${why}）。所有数字都是构建时用同一份 pycore 算好的，仍然正确，只是不能拖动和调节。`, again);
  });
}

preparePrint();
themeToggle();
enableReading();
enablePopovers();
showProgress();
enableExport();
document.addEventListener("tbook:page", showProgress);
enableNavigation(makeLive);
makeLive(document).finally(registerServiceWorker);
