// Entry point of every page: boots the runtime once, then makes each widget live.
// Until then (or if the runtime cannot load) the pre-rendered numbers stay on the page.
import { bootRuntime } from "./runtime.js";
import { setState } from "./widgets/common.js";

const roots = [...document.querySelectorAll("[data-widget]")];

function showNotice(message) {
  const notice = document.querySelector(".runtime-notice");
  if (!notice) return;
  notice.textContent = message;
  notice.hidden = false;
}

async function mountAll(runtime) {
  await Promise.all(roots.map(async (root) => {
    try {
      const module = await import(`./widgets/${root.dataset.widget}.js`);
      module.mount(root, runtime);
      setState(root, "live");
    } catch (err) {
      console.error(err);
      setState(root, "error", `这个小部件出错了：${err.message}；显示的是构建时算好的数字。`);
    }
  }));
}

if (roots.length) {
  roots.forEach((root) => setState(root, "loading"));
  bootRuntime().then(mountAll, (err) => {
    console.error(err);
    const why = typeof WebAssembly === "undefined" ? "这个浏览器不支持 WebAssembly" : err.message;
    roots.forEach((root) => setState(root, "error", "交互计算不可用，显示的是构建时算好的数字。"));
    showNotice(`页面上的交互部分没能启动（${why}）。所有数字都是构建时用同一份 pycore 算好的，仍然正确，只是不能拖动和调节。`);
  });
}
