#!/usr/bin/env python3
"""Build a Lexiforge n-gram store from a model file on an Apache Spark cluster.

    python3 Sources/spark/lexiforge_spark.py --model Corpora/dorian-gray.model.json \
        -o Artifacts/dorian-gray.sqlite --master 'local[2]'
    spark-submit --master spark://host:7077 Sources/spark/lexiforge_spark.py --model ... -o ... \
        --shared /mnt/shared/lexiforge-run

The job (docs/scale.md):
1. ships the lexiforge binary to the executors (SparkContext.addFile);
2. runs one task per part K of N: `lexiforge count --model MODEL --part K/N` writes a count shard
   to the shared storage (a local or mounted path, `hdfs://...` or `s3://...`);
3. merges the shards in a tree on the executors (`lexiforge merge --shard`, FAN_IN at a time);
4. on the driver, `lexiforge merge SHARD... --model MODEL -o STORE` sums the last shards and runs
   the rest of the build (language model, wordlists, tags, swipe layouts) into the store.

The store is byte-identical to `lexiforge train MODEL` (the parts of a split add up exactly and the
shards say what they hold; see CountShard.swift). A task that fails is retried by Spark; a part
that fails every attempt stops the job with the part named and exit status 1. The shards are
removed at the end, whether the job succeeded or not (--keep-shards keeps them).
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import uuid

# Environment variables handed to every lexiforge the executors run (tests cut tiny corpora
# into many batches with LEXIFORGE_BATCH_BYTES).
PASSED_ENVIRONMENT = ("LEXIFORGE_BATCH_BYTES",)


def arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", required=True, help="the model file (JSON), on a path every executor can read")
    parser.add_argument("-o", "--output", required=True, help="the store to write (on the driver)")
    parser.add_argument("--binary", default=".build/release/lexiforge",
                        help="the lexiforge executable shipped to the executors (default: %(default)s)")
    parser.add_argument("--master", default=None,
                        help="Spark master (default: spark-submit's, else local[2]); local[N] runs with task retries as a cluster does")
    parser.add_argument("--parts", type=int, default=0, help="parts of the split (default: 2 per core of the cluster)")
    parser.add_argument("--fan-in", type=int, default=4, help="shards merged by one task of the merge tree (default: %(default)s)")
    parser.add_argument("--threads", type=int, default=1, help="threads of each count task (default: %(default)s)")
    parser.add_argument("--shared", default=None,
                        help="shared storage for the shards: a path every executor sees, hdfs://... or s3://...; "
                             "the run uses a private folder inside it (default: beside the output, for local masters)")
    parser.add_argument("--keep-shards", action="store_true", help="keep the shards (for inspection)")
    parser.add_argument("--fail-once", type=int, action="append", default=[], metavar="K",
                        help="testing: the first attempt of part K fails (Spark retries it)")
    args = parser.parse_args(argv)
    if args.parts < 0 or args.fan_in < 2 or args.threads < 1:
        parser.error("--parts must be >= 1, --fan-in >= 2, --threads >= 1")
    return args


class Storage:
    """Where shards live: a path (local or mounted), hdfs:// (the hdfs command) or s3:// (the aws command)."""

    def __init__(self, root):
        self.root = root.rstrip("/")
        self.remote = root.startswith("hdfs://") or root.startswith("s3://")

    def url(self, name):
        return f"{self.root}/{name}"

    def _run(self, command):
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed: {result.stderr.strip()}")

    def put(self, local, name):
        if not self.remote:
            return
        if self.root.startswith("s3://"):
            self._run(["aws", "s3", "cp", "--only-show-errors", local, self.url(name)])
        else:
            self._run(["hdfs", "dfs", "-put", "-f", local, self.url(name)])

    def get(self, name, local):
        if not self.remote:
            return self.url(name)
        if self.root.startswith("s3://"):
            self._run(["aws", "s3", "cp", "--only-show-errors", self.url(name), local])
        else:
            self._run(["hdfs", "dfs", "-get", self.url(name), local])
        return local

    def local_path(self, name, scratch):
        """Where a task writes `name` before put()."""
        return self.url(name) if not self.remote else os.path.join(scratch, name)

    def exists(self, name):
        if not self.remote:
            return os.path.exists(self.url(name))
        if self.root.startswith("s3://"):
            return subprocess.run(["aws", "s3", "ls", self.url(name)], capture_output=True).returncode == 0
        return subprocess.run(["hdfs", "dfs", "-test", "-e", self.url(name)], capture_output=True).returncode == 0

    def touch(self, name):
        if not self.remote:
            with open(self.url(name), "w"):
                pass
            return
        with tempfile.NamedTemporaryFile() as empty:
            self.put(empty.name, name)

    def remove_all(self):
        if not self.remote:
            shutil.rmtree(self.root, ignore_errors=True)
        elif self.root.startswith("s3://"):
            subprocess.run(["aws", "s3", "rm", "--recursive", "--only-show-errors", self.root + "/"], capture_output=True)
        else:
            subprocess.run(["hdfs", "dfs", "-rm", "-r", "-f", self.root], capture_output=True)


def lexiforge(binary, arguments, environment, what):
    """Runs lexiforge; a failure raises with what failed and lexiforge's own message."""
    env = dict(os.environ)
    env.update(environment)
    result = subprocess.run([binary] + arguments, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        raise RuntimeError(f"{what}: lexiforge {arguments[0]} exited {result.returncode}: {result.stderr.strip()}")
    return result


def main(argv):
    args = arguments(argv)
    model = os.path.abspath(args.model)
    output = os.path.abspath(args.output)
    binary = os.path.abspath(args.binary)
    if not os.access(binary, os.X_OK):
        sys.exit(f"error: {binary}: no lexiforge executable there; build it with `make build` (or pass --binary)")
    if not os.path.isfile(model):
        sys.exit(f"error: {model}: no such model file")
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)

    from pyspark import SparkFiles
    from pyspark.sql import SparkSession

    builder = (SparkSession.builder.appName(f"lexiforge {os.path.basename(model)}")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.log.level", "ERROR"))
    master = args.master
    if master is None and "spark.master" not in os.environ.get("PYSPARK_SUBMIT_ARGS", ""):
        master = "local[2]"
    if master and master.startswith("local[") and "," not in master:
        # Local mode gives a task one attempt unless told otherwise; a cluster gives it four.
        master = master[:-1] + ",4]"
    if master:
        builder = builder.master(master)
    spark = builder.getOrCreate()
    sc = spark.sparkContext
    sc.setLogLevel("ERROR")
    sc.addFile(binary)
    executable = os.path.basename(binary)

    # A private folder of this run inside --shared (or beside the output): removed at the end.
    base = (args.shared or os.path.dirname(output)).rstrip("/")
    shared_root = f"{base}/.{os.path.basename(output)}.spark-{uuid.uuid4().hex[:12]}"
    if not shared_root.startswith(("hdfs://", "s3://")):
        try:
            os.makedirs(shared_root, mode=0o700)
        except OSError as error:
            spark.stop()
            sys.exit(f"error: {base}: cannot create the shards' folder there ({error.strerror}); choose a writable --shared")
    storage = Storage(shared_root)
    parts = args.parts or max(2, 2 * sc.defaultParallelism)
    environment = {name: os.environ[name] for name in PASSED_ENVIRONMENT if name in os.environ}
    fail_once = set(args.fail_once)
    threads = args.threads

    # A task's scratch folder lies in the executor's folder of this application, which Spark
    # deletes when the application ends: a task killed mid-way (the job aborted by another part's
    # failure) cannot leave its folder behind, as one in /tmp could.
    def count(k):
        scratch = tempfile.mkdtemp(prefix="lexiforge-count-", dir=SparkFiles.getRootDirectory())
        try:
            name = f"part-{k:05d}-of-{parts:05d}.sqlite"
            if k in fail_once and not storage.exists(f".failed-once-{k}"):
                storage.touch(f".failed-once-{k}")
                raise RuntimeError(f"part {k}/{parts}: injected failure (--fail-once {k}); Spark retries the task")
            local = storage.local_path(name, scratch)
            lexiforge(SparkFiles.get(executable),
                      ["count", "--model", model, "--part", f"{k}/{parts}", "-o", local,
                       "--threads", str(threads), "--quiet"],
                      environment, f"part {k}/{parts}")
            storage.put(local, name)
            return name
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    def merge(item):
        level, index, names = item
        scratch = tempfile.mkdtemp(prefix="lexiforge-merge-", dir=SparkFiles.getRootDirectory())
        try:
            inputs = [storage.get(name, os.path.join(scratch, name)) for name in names]
            name = f"merge-{level}-{index:05d}.sqlite"
            local = storage.local_path(name, scratch)
            lexiforge(SparkFiles.get(executable), ["merge", "--shard", *inputs, "-o", local, "--quiet"],
                      environment, f"merge {level}.{index} of {', '.join(names)}")
            storage.put(local, name)
            return name
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    status = 0
    try:
        print(f"lexiforge-spark: {parts} parts of {model} on {sc.master}; shards in {shared_root}", file=sys.stderr)
        names = sc.parallelize(range(parts), parts).map(count).collect()
        level = 0
        while len(names) > args.fan_in:
            level += 1
            groups = [(level, i, names[j:j + args.fan_in]) for i, j in enumerate(range(0, len(names), args.fan_in))]
            print(f"lexiforge-spark: merge level {level}: {len(names)} shards in {len(groups)} task(s)", file=sys.stderr)
            names = sc.parallelize(groups, len(groups)).map(merge).collect()
        scratch = tempfile.mkdtemp(prefix="lexiforge-final-")
        try:
            inputs = [storage.get(name, os.path.join(scratch, name)) for name in names]
            print(f"lexiforge-spark: final merge and estimation of {len(inputs)} shard(s) into {output}", file=sys.stderr)
            result = subprocess.run([binary, "merge", *inputs, "--model", model, "-o", output, "--quiet"],
                                    env={**os.environ, **environment})
            if result.returncode != 0:
                print("error: the final merge failed (its message is above)", file=sys.stderr)
                status = 1
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    except Exception as error:  # Py4JJavaError carries the task's Python traceback in its text.
        text = str(error)
        lines = [line.strip() for line in text.splitlines() if line.strip().startswith("RuntimeError:")]
        reason = lines[-1][len("RuntimeError:"):].strip() if lines else text.splitlines()[0] if text else repr(error)
        print(f"error: the Spark job failed: {reason}", file=sys.stderr)
        status = 1
    finally:
        if not args.keep_shards:
            storage.remove_all()
        spark.stop()
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
