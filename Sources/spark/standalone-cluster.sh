#!/usr/bin/env bash
# A Spark standalone cluster on this machine: one master and WORKERS workers (one core, 1 GiB
# each), every one its own JVM, as on a real cluster; the executors they start run the tasks in
# processes of their own. For trying the job against a real master URL (docs/scale.md):
#   Sources/spark/standalone-cluster.sh start      # prints the master URL, spark://127.0.0.1:7077
#   python3 Sources/spark/lexiforge_spark.py --master spark://127.0.0.1:7077 --model ... -o ...
#   Sources/spark/standalone-cluster.sh stop
set -euo pipefail
ACTION=${1:-start}
WORKERS=${WORKERS:-2}
PORT=${SPARK_MASTER_PORT:-7077}
STATE=${SPARK_CLUSTER_DIR:-${TMPDIR:-/tmp}/lexiforge-spark-cluster}
SPARK_HOME=$(python3 -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))')
export SPARK_HOME
case "$ACTION" in
start)
  mkdir -p "$STATE"
  nohup "$SPARK_HOME/bin/spark-class" org.apache.spark.deploy.master.Master --host 127.0.0.1 --port "$PORT" \
    --webui-port $((PORT + 1010)) >"$STATE/master.log" 2>&1 &
  echo $! >"$STATE/master.pid"
  for _ in $(seq 60); do grep -q "I have been elected leader\|Starting Spark master" "$STATE/master.log" 2>/dev/null && break; sleep 1; done
  for i in $(seq "$WORKERS"); do
    mkdir -p "$STATE/worker$i"
    nohup "$SPARK_HOME/bin/spark-class" org.apache.spark.deploy.worker.Worker "spark://127.0.0.1:$PORT" \
      --host 127.0.0.1 --cores 1 --memory 1g --work-dir "$STATE/worker$i" --webui-port $((PORT + 1010 + i)) \
      >"$STATE/worker$i.log" 2>&1 &
    echo $! >"$STATE/worker$i.pid"
  done
  for i in $(seq "$WORKERS"); do
    for _ in $(seq 60); do grep -q "Successfully registered with master" "$STATE/worker$i.log" 2>/dev/null && break; sleep 1; done
    grep -q "Successfully registered with master" "$STATE/worker$i.log" || { echo "worker $i did not register; see $STATE/worker$i.log" >&2; exit 1; }
  done
  echo "spark://127.0.0.1:$PORT"
  ;;
stop)
  for pidfile in "$STATE"/*.pid; do
    [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true
    rm -f "$pidfile"
  done
  ;;
*) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
