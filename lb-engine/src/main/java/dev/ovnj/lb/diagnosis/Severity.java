package dev.ovnj.lb.diagnosis;

import java.util.Locale;

/** How bad a finding is. */
public enum Severity {
    /** Traffic to the VIP does not (or will not) work as desired. */
    ERROR,
    /** Suspicious, but traffic may still work. */
    WARNING,
    /** Nothing wrong with traffic: a change that would cut the work OVN does (scale advice). */
    ADVICE;

    /**
     * The word used in output: {@code error} or {@code warning}.
     *
     * @return the lower-case name
     */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }
}
