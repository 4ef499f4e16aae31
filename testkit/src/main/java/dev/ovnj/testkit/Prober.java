package dev.ovnj.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A client in a {@link Host} sending one request every interval to one address, without waiting
 * for the previous one, until {@link #stop()}: the way to measure a blackout (the longest run of
 * failed requests, {@link ProbeReport#blackout()}) while something breaks and is repaired.
 * Made by {@link Host#probe}.
 */
public final class Prober implements AutoCloseable {
    private final Chassis chassis;
    private final String description;
    private final Duration interval;
    private final Duration timeout;
    private final Process process;
    private final List<ProbeReport.Sample> samples = new ArrayList<>();
    private final CountDownLatch ended = new CountDownLatch(1);
    private final CountDownLatch began = new CountDownLatch(1);
    private volatile long originNanos;
    private volatile ProbeReport finalReport;

    Prober(Chassis chassis, String description, List<String> argv, Duration interval, Duration timeout) {
        this.chassis = chassis;
        this.description = description;
        this.interval = interval;
        this.timeout = timeout;
        try {
            this.process = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw new TestkitException("cannot start the probe " + description + ": " + e.getMessage(), e);
        }
        Thread reader = new Thread(this::read, "ovnj-prober");
        reader.setDaemon(true);
        reader.start();
        try {
            if (!began.await(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new TestkitException("the probe " + description + " did not begin within 20 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new TestkitException("interrupted", e);
        }
    }

    private void read() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.equals("begin")) {
                    originNanos = System.nanoTime();
                    began.countDown();
                } else if (!line.equals("end")) {
                    int space = line.indexOf(' ');
                    ProbeReport.Sample s = new ProbeReport.Sample(Long.parseLong(line.substring(0, space)),
                            Reply.parse(line.substring(space + 1)));
                    synchronized (samples) {
                        samples.add(s);
                        samples.notifyAll();
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // The process was killed; what was read stays in the report.
        } finally {
            began.countDown();
            ended.countDown();
        }
    }

    /**
     * What the requests finished so far got.
     *
     * @return a snapshot
     */
    public ProbeReport report() {
        synchronized (samples) {
            return new ProbeReport(samples, interval);
        }
    }

    /**
     * Waits until a request sent from now on is answered.
     *
     * @param bound how long to wait at most
     * @return true when one was answered, false when the bound passed first
     */
    public boolean awaitAnswer(Duration bound) {
        return awaitSample(bound, s -> s.reply().answered());
    }

    /**
     * Waits until a request sent from now on fails, e.g. to see a fault take effect.
     *
     * @param bound how long to wait at most
     * @return true when one failed, false when the bound passed first
     */
    public boolean awaitFailure(Duration bound) {
        return awaitSample(bound, s -> !s.reply().answered());
    }

    private boolean awaitSample(Duration bound, Predicate<ProbeReport.Sample> wanted) {
        long from = (System.nanoTime() - originNanos) / 1_000_000;
        // A request's outcome is known at most its timeout after it was sent.
        long deadline = System.nanoTime() + bound.toNanos() + timeout.toNanos();
        synchronized (samples) {
            int seen = 0;
            while (true) {
                for (; seen < samples.size(); seen++) {
                    ProbeReport.Sample s = samples.get(seen);
                    if (s.sentMillis() >= from && wanted.test(s)) {
                        return true;
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || ended.getCount() == 0) {
                    return false;
                }
                try {
                    samples.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new TestkitException("interrupted while waiting on the probe " + description, e);
                }
            }
        }
    }

    /**
     * Stops sending, waits for the requests in flight and returns what all of them got; a dead
     * {@code ovs-vswitchd} or {@code ovn-controller} fails here with its last words.
     *
     * @return the report
     */
    public synchronized ProbeReport stop() {
        if (finalReport != null) {
            return finalReport;
        }
        try (OutputStream stdin = process.getOutputStream()) {
            stdin.flush();
        } catch (IOException e) {
            // Already gone; the report holds what was read.
        }
        try {
            if (!ended.await(timeout.toMillis() + 10_000, TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
            }
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        finalReport = report();
        if (finalReport.failures() > 0) {
            chassis.assertAlive();
        }
        return finalReport;
    }

    /** Stops the probe if it still runs, without checking the chassis. */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        return "Prober[" + description + "]";
    }
}
