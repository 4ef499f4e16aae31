/** JUnit 5 integration: inject real servers and clusters into tests with {@link dev.ovnj.testkit.junit.OvsdbTest}. */
package dev.ovnj.testkit.junit;
