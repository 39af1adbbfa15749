"""Widget kernel-regression: attention pooling (Nadaraya-Watson) on 1-D data.

The reader moves the query x and the kernel's width; the view is the query's weight on every
training point (bars, and the points' size on the chart), the prediction there, and the whole
fitted curve beside the function the data were drawn around (pycore/kernel_regression.py).
"""
import numpy as np

from ... import figure
from ... import kernel_regression as kr

PARAMS = {
    "width": {"type": "float", "min": 0.05, "max": 3.0, "default": 0.4, "scale": "log",
              "help": "the Gaussian kernel's width w; the slider is log-scaled"},
    "query": {"type": "float", "min": 0.0, "max": 6.0, "default": 2.5, "step": 0.05,
              "help": "the query x whose weights are shown"},
}
GRID = np.linspace(*kr.DOMAIN, 121)
Y_DOMAIN = (-1.5, 3.5)
BIGGEST_DOT = 9.0  # the radius of the point with the query's largest weight


def view(width, query):
    x, y = kr.training_points()
    w = kr.weights(query, x, width)[0]  # (N,)
    fitted = kr.regress(GRID, x, y, width)  # (121,)
    prediction = float(w @ y)
    chart = figure.line_chart(
        [{"name": "拟合曲线", "x": GRID.tolist(), "y": fitted.tolist()},
         {"name": "真实函数", "x": GRID.tolist(), "y": kr.truth(GRID).tolist()}],
        x_domain=kr.DOMAIN, y_domain=Y_DOMAIN, x_label="x", y_label="y")
    plot = chart["plot"]
    left, right = plot["x"], plot["x"] + plot["w"]
    bottom, top_y = plot["y"] + plot["h"], plot["y"]
    sx = lambda v: round(figure.scale(v, *kr.DOMAIN, left, right), 2)  # noqa: E731
    sy = lambda v: round(figure.scale(v, *Y_DOMAIN, bottom, top_y), 2)  # noqa: E731
    top = float(w.max())
    # a dot's area grows with its weight; the heaviest is BIGGEST_DOT, none vanishes
    dots = [{"cx": sx(xi), "cy": sy(yi),
             "r": round(1.5 + (BIGGEST_DOT - 1.5) * np.sqrt(wi / top), 2)}
            for xi, yi, wi in zip(x, y, w)]
    return {
        "width": width, "query": query, "prediction": prediction,
        "truth": float(kr.truth(query)),
        "nearest": float(x[int(np.argmax(w))]), "top_weight": top,
        "chart": chart, "dots": dots,
        "marker": {"x": sx(query), "y": sy(prediction)},
        "bars": figure.bars(w, [f"{xi:.1f}" for xi in x], width=560, top=1.0, digits=2),
        "weights": w,
    }
