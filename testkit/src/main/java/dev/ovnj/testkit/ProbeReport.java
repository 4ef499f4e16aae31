package dev.ovnj.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a {@link Prober}'s requests got, in the order they were sent: how many were answered and by
 * whom, and the <em>blackout</em>, the longest run of consecutive failed requests, measured from
 * the first failed request's sending to the next answered one's (or, when the run lasts to the end,
 * to the last failed request's sending plus one interval).
 *
 * @param samples every request, ordered by when it was sent
 * @param interval the time between two requests
 */
public record ProbeReport(List<Sample> samples, Duration interval) {
    /**
     * One request of a probe.
     *
     * @param sentMillis when it was sent, in milliseconds since the probe began
     * @param reply what it got
     */
    public record Sample(long sentMillis, Reply reply) {
    }

    /**
     * Sorts and copies the samples.
     *
     * @param samples the requests, in any order
     * @param interval the time between two requests
     */
    public ProbeReport {
        List<Sample> sorted = new ArrayList<>(samples);
        sorted.sort(Comparator.comparingLong(Sample::sentMillis));
        samples = List.copyOf(sorted);
    }

    /**
     * How many requests were sent and finished.
     *
     * @return the count
     */
    public int total() {
        return samples.size();
    }

    /**
     * How many got no answer.
     *
     * @return the count
     */
    public long failures() {
        return samples.stream().filter(s -> !s.reply().answered()).count();
    }

    /**
     * How many answers each server gave.
     *
     * @return server name to count, sorted by name
     */
    public Map<String, Long> answersBy() {
        Map<String, Long> by = new TreeMap<>();
        samples.forEach(s -> s.reply().server().ifPresent(n -> by.merge(n, 1L, Long::sum)));
        return by;
    }

    /**
     * The longest run of consecutive failed requests, as a time.
     *
     * @return zero when every request was answered
     */
    public Duration blackout() {
        long longest = 0;
        long runStart = -1;
        for (Sample s : samples) {
            if (!s.reply().answered()) {
                if (runStart < 0) {
                    runStart = s.sentMillis();
                }
            } else if (runStart >= 0) {
                longest = Math.max(longest, s.sentMillis() - runStart);
                runStart = -1;
            }
        }
        if (runStart >= 0) {
            longest = Math.max(longest, samples.get(samples.size() - 1).sentMillis() - runStart + interval.toMillis());
        }
        return Duration.ofMillis(longest);
    }

    /**
     * The number of requests in the longest run of consecutive failures.
     *
     * @return zero when every request was answered
     */
    public int longestFailureRun() {
        int longest = 0;
        int run = 0;
        for (Sample s : samples) {
            run = s.reply().answered() ? 0 : run + 1;
            longest = Math.max(longest, run);
        }
        return longest;
    }

    /**
     * Whether the last request failed: the outage had not ended when the probe stopped.
     *
     * @return true when the probe ended dark
     */
    public boolean endedDark() {
        return !samples.isEmpty() && !samples.get(samples.size() - 1).reply().answered();
    }

    @Override
    public String toString() {
        return total() + " requests every " + interval.toMillis() + " ms, " + failures() + " failed, blackout "
                + blackout().toMillis() + " ms (" + longestFailureRun() + " requests in a row)"
                + (endedDark() ? ", still dark at the end" : "") + ", answers " + answersBy();
    }
}
