"""Threads, pools and coroutines in construct: run once while compiling, or rejected."""

import asyncio
import concurrent.futures
import multiprocessing
import threading

from mindspore import nn

STEPS = []


def log_step():
    STEPS.append(len(STEPS))


async def fetch_scale():
    return 2


class LogsInThread(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        threading.Thread(target=log_step).start()  # expect: concurrency-in-graph
        return x * 2


class KeepsExecutor(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        executor = concurrent.futures.ThreadPoolExecutor(2)  # expect: concurrency-in-graph
        return x * 2


class StartsProcessPool(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        pool = multiprocessing.Pool(1)  # expect: concurrency-in-graph
        return x * 2


class SubmitsToExecutor(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as executor:  # expect: concurrency-in-graph
            executor.submit(log_step)
        return x * 2


class RunsCoroutine(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x * asyncio.run(fetch_scale())  # expect: concurrency-in-graph


def log_value(value):
    STEPS.append(value)


class ThreadOnATensor(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        threading.Thread(target=log_value, args=(x,)).start()  # expect: concurrency-in-graph
        return x * 2
