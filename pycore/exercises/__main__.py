"""python3 -m pycore.exercises verify FILE [--no-recheck]: check a reader's progress file
(progress.py). Exit 0 when the file is intact and every exercise marked passed passes again
here; 1 when it was changed or a claim does not hold; 2 when it is no progress file."""
import argparse
import sys

from . import progress


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m pycore.exercises")
    commands = parser.add_subparsers(dest="command", required=True)
    verify = commands.add_parser("verify", help="verify a progress file exported by the book")
    verify.add_argument("file")
    verify.add_argument("--no-recheck", action="store_true",
                        help="only the checksum: do not run the saved code again")
    args = parser.parse_args(argv)
    try:
        with open(args.file, encoding="utf-8") as f:
            text = f.read()
        report = progress.verify(text, recheck=not args.no_recheck)
    except OSError as e:
        print(f"{args.file}: 读不了这个文件（{e.strerror}）", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"{args.file}:1: 不是 UTF-8 文本；请交原样下载的进度文件", file=sys.stderr)
        return 2
    except progress.Invalid as e:
        print(f"{args.file}:{e.line or 1}: {e}", file=sys.stderr)
        return 2
    print(f"{report['book']}，导出于 {report['exported']}")
    for row in report["exercises"]:
        state = "已通过" if row["passed"] else f"尝试 {row['attempts'] or 0} 次"
        again = "" if row["recheck"] is None else f"，本机重新检查：{row['recheck']}"
        print(f"  {row['id']}: {state}{again}")
    for problem in report["problems"]:
        print(f"{args.file}: {problem}", file=sys.stderr)
    print("文件完好，通过的练习在本机重新检查也通过。" if report["ok"] else "验证没有通过。")
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
