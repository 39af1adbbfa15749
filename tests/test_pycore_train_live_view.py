"""train-live's heatmap bands: where the heatmap drew the cells they frame."""
import numpy as np

from pycore.widgets import train_live as W


def test_the_bands_frame_the_last_row_and_the_answers_column():
    """The row of "=" (the last) and the answer noun's column, each where the heatmap drawn
    once (fixed) put those cells, for both example sentences."""
    cells = W.fixed()["geometry"]["heat"]["cells"]
    i, j = np.asarray(cells["i"]), np.asarray(cells["j"])
    for adjective in ("累", "宽"):
        drawn = W.drawn_head(0, 0, "1-0", adjective)
        noun = list(drawn["tokens"]).index(drawn["answer"])
        assert noun == (0 if adjective == "累" else 3)  # 小猫 … 累; … 马路 … 宽
        band = drawn["heat"]
        assert {float(y) for y in np.asarray(cells["y"])[i == W.T - 1]} == {band["row_y"]}
        assert {float(x) for x in np.asarray(cells["x"])[j == noun]} == {band["col_x"]}
