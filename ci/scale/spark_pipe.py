#!/usr/bin/env python3
"""Replays a trace of any size on Spark: docs/scale.md's recipe, as a script to run.

usage:
  spark-submit ci/scale/spark_pipe.py --webpolicy BIN [options] TRACE -- SIMULATE_OPTIONS...
  python3 ci/scale/spark_pipe.py --master 'local[2]' --webpolicy BIN [options] TRACE -- ...

  python3 ci/scale/spark_pipe.py --master 'local[2]' --webpolicy dist/webpolicy \\
      --ship easy.json day.trace -- --content-rules easy.json

SIMULATE_OPTIONS go to `webpolicy simulate -` on every shard: name the policy (--policy) or the
lists (--content-rules) there, by the names of the files --ship sends (a shard is simulated in
a folder holding them, beside the binary). Prints the merged summary, `webpolicy merge-summaries`
of the shards' summaries, and exits as merge-summaries does: 0, or 1 when an expectation failed.
A shard that fails stops the job: the script exits 2 with that shard's messages, their positions
in TRACE.

options:
  --webpolicy BIN   the binary the executors run: the release binary (docs/install.md), which
                    links the Swift runtime in and needs nothing beside it
  --ship FILE       a file every shard needs (the policy and what it includes, the lists);
                    repeat it
  --split-mb N      the largest input split, in MB (default 64): the trace is cut into
                    contiguous splits of at most this size, each a shard
  --results DIR     also write every request's result (`--format json` lines) to DIR, one
                    part file a shard, in the trace's order
  --master URL      Spark's master when run with python3 (spark-submit passes its own)

What it takes care of (docs/scale.md, "Pitfalls"):
- Shards are cut at `page` lines only (Hadoop's textinputformat.record.delimiter "\\npage "):
  a page load is never split, and contiguous splits keep each page after the one before it —
  never `repartition`, which deals records out to shards in another order.
- Each shard starts with `origin: TRACE:LINE`, so an error in it names the line of TRACE, not
  of the shard; that costs one extra pass counting each split's lines.
- An empty split is an empty shard (an empty summary), not a failure.
- A shard's exit code is checked, and its messages are carried to the driver; with
  `RDD.pipe` a failing shard would only vanish from the output unless `checkCode=True`.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

def arguments():
    argv = sys.argv[1:]
    simulate = []
    if "--" in argv:
        cut = argv.index("--")
        argv, simulate = argv[:cut], argv[cut + 1:]
    parser = argparse.ArgumentParser(description="Replays a trace on Spark through webpolicy simulate -.")
    parser.add_argument("trace")
    parser.add_argument("--webpolicy", required=True)
    parser.add_argument("--ship", action="append", default=[])
    parser.add_argument("--split-mb", type=float, default=64)
    parser.add_argument("--results")
    parser.add_argument("--master")
    options = parser.parse_args(argv)
    options.simulate = simulate
    if not simulate:
        parser.error("give the simulate options after --: --policy FILE or --content-rules LIST")
    if "--format" in simulate:
        parser.error("--format is the script's to choose (summary, or json with --results)")
    return options


def shard_lines(index, records, trace_name, first_lines):
    """One partition as a shard: its `origin:` line, then its records as trace text."""
    first = True
    for offset, text in records:
        if first:
            yield "origin: %s:%d\n" % (trace_name, first_lines[index])
            first = False
        # Every record but the file's first lost its "page " to the delimiter, and each its
        # line break.
        yield ("" if offset == 0 else "page ") + text + "\n"


def run_shard(index, lines, command):
    """Runs `webpolicy simulate -` on one shard, on the executor, and yields its output lines;
    a failure raises an exception carrying the shard's messages (the driver prints them). The
    shard goes through files, not pipes: a shard's input and its json output may be large."""
    from pyspark import SparkFiles
    folder = SparkFiles.getRootDirectory()
    binary = os.path.join(folder, os.path.basename(command[0]))
    if not os.access(binary, os.X_OK):
        os.chmod(binary, 0o755)
    with tempfile.TemporaryFile() as stdin, tempfile.TemporaryFile() as stdout:
        for line in lines:
            stdin.write(line.encode("utf-8"))
        stdin.seek(0)
        done = subprocess.run([binary] + command[1:], stdin=stdin, stdout=stdout, stderr=subprocess.PIPE, cwd=folder)
        if done.returncode not in (0, 1):
            raise RuntimeError("webpolicy simulate failed on shard %d (exit %d):\n%s"
                               % (index, done.returncode, done.stderr.decode("utf-8", "replace")))
        stdout.seek(0)
        for line in stdout:
            yield line.decode("utf-8").rstrip("\n")


def main():
    options = arguments()
    from pyspark import SparkConf, SparkContext, StorageLevel

    configuration = SparkConf().setAppName("webpolicy simulate")
    if options.master:
        configuration.setMaster(options.master)
    # The progress bar would interleave with the summary on a terminal.
    configuration.set("spark.ui.showConsoleProgress", "false")
    context = SparkContext(conf=configuration)
    # A failing shard is reported once, below, with its messages; not again by every executor.
    context.setLogLevel("FATAL")
    binary = os.path.abspath(options.webpolicy)
    context.addFile(binary)
    for path in options.ship:
        context.addFile(os.path.abspath(path))

    split = str(int(options.split_mb * 1024 * 1024))
    hadoop = {
        "textinputformat.record.delimiter": "\npage ",
        "mapreduce.input.fileinputformat.split.maxsize": split,
        "mapreduce.input.fileinputformat.split.minsize": split,
    }
    records = context.newAPIHadoopFile(
        os.path.abspath(options.trace), "org.apache.hadoop.mapreduce.lib.input.TextInputFormat",
        "org.apache.hadoop.io.LongWritable", "org.apache.hadoop.io.Text", conf=hadoop)
    records.persist(StorageLevel.MEMORY_AND_DISK)
    # Where each split starts in the trace, in lines: one pass counting them.
    counts = records.mapPartitions(lambda part: [sum(text.count("\n") + 1 for _, text in part)]).collect()
    first_lines, line = [], 1
    for count in counts:
        first_lines.append(line)
        line += count

    trace_name = options.trace
    output = "json" if options.results else "summary"
    command = [os.path.basename(binary), "simulate", "-", "--format", output] + options.simulate
    lines = records.mapPartitionsWithIndex(
        lambda index, part: run_shard(index, shard_lines(index, part, trace_name, first_lines), command))
    try:
        lines.persist(StorageLevel.MEMORY_AND_DISK)
        summaries = lines.filter(lambda text: text.startswith('{"summary"')).collect()
        if options.results:
            lines.filter(lambda text: not text.startswith('{"summary"')).saveAsTextFile(options.results)
    except Exception as error:  # noqa: BLE001 - Spark wraps the executor's exception in its own
        message = str(error)
        start = message.find("webpolicy simulate failed")
        print(message[start:].split("\n\tat ")[0] if start >= 0 else message, file=sys.stderr)
        context.stop()
        sys.exit(2)
    context.stop()

    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as handle:
        handle.write("\n".join(summaries) + "\n")
    merged = subprocess.run([binary, "merge-summaries", handle.name])
    os.unlink(handle.name)
    empty = sum(1 for line in summaries if json.loads(line)["summary"]["requests"] == 0)
    print("%d shards (splits of up to %s MB, %d without a request) merged" % (len(summaries), options.split_mb, empty), file=sys.stderr)
    sys.exit(merged.returncode)


if __name__ == "__main__":
    main()
