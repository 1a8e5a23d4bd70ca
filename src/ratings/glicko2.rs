//! Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013), step by step as the paper
//! gives it: one rating period at a time, the volatility found by the Illinois algorithm.

use super::Score;

/// The scale between a Glicko rating and Glicko-2's own.
const SCALE: f64 = 173.7178;

/// The convergence tolerance of the volatility, as the paper sets it.
const EPSILON: f64 = 0.000_001;

/// The most iterations the volatility may take before the computation gives up (lichess gives
/// up at the same count).
const MAX_ITERATIONS: u32 = 1000;

/// A player's rating: the rating, its deviation and its volatility.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating, 1500 for a new player.
    pub rating: f64,
    /// The rating deviation.
    pub deviation: f64,
    /// The volatility.
    pub volatility: f64,
}

/// Why a rating could not be computed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GlickoError {
    /// The volatility did not converge.
    #[error("the volatility did not converge in {MAX_ITERATIONS} iterations")]
    NoConvergence,
    /// A rating that is not a finite number, or a deviation, volatility or τ that is not a
    /// finite number above 0 (the player's or an opponent's).
    #[error("{0} is not a number a rating may hold")]
    Invalid(&'static str),
}

/// What one rating period computes beside the new rating, for checks against the paper.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Period {
    /// The new rating.
    pub rating: Rating,
    /// The estimated variance of the rating from the games alone (`v`).
    pub variance: f64,
    /// The estimated improvement (`Δ`).
    pub improvement: f64,
}

fn g(phi: f64) -> f64 {
    1.0 / libm::sqrt(1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI))
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + libm::exp(-g(phi_j) * (mu - mu_j)))
}

/// The player's rating after one rating period of `games` (each against an opponent's rating at
/// the start of the period), with system constant `tau`. With no game, only the deviation grows.
///
/// # Errors
/// A number that is not finite and positive, or a volatility that does not converge.
pub fn period(player: Rating, games: &[(Rating, Score)], tau: f64) -> Result<Period, GlickoError> {
    for (value, what) in [
        (player.deviation, "a rating deviation"),
        (player.volatility, "a volatility"),
        (tau, "τ"),
    ] {
        if !(value.is_finite() && value > 0.0) {
            return Err(GlickoError::Invalid(what));
        }
    }
    if !player.rating.is_finite() {
        return Err(GlickoError::Invalid("a rating"));
    }
    for (opponent, _) in games {
        let deviation = opponent.deviation;
        if !(opponent.rating.is_finite() && deviation.is_finite() && deviation > 0.0) {
            return Err(GlickoError::Invalid("an opponent's rating"));
        }
    }
    let mu = (player.rating - 1500.0) / SCALE;
    let phi = player.deviation / SCALE;
    let sigma = player.volatility;
    // Games whose results were certain (a gap of thousands of points, E rounding to 1) tell
    // nothing: the period is as one without games.
    let informative = games.iter().any(|(opponent, _)| {
        let e = expected(
            mu,
            (opponent.rating - 1500.0) / SCALE,
            opponent.deviation / SCALE,
        );
        e > 0.0 && e < 1.0
    });
    if !informative {
        let phi_star = libm::sqrt(phi * phi + sigma * sigma);
        return Ok(Period {
            rating: Rating {
                deviation: SCALE * phi_star,
                ..player
            },
            variance: f64::INFINITY,
            improvement: 0.0,
        });
    }
    let (mut inverse_v, mut sum) = (0.0, 0.0);
    for (opponent, score) in games {
        let mu_j = (opponent.rating - 1500.0) / SCALE;
        let phi_j = opponent.deviation / SCALE;
        let e = expected(mu, mu_j, phi_j);
        let g_j = g(phi_j);
        inverse_v += g_j * g_j * e * (1.0 - e);
        sum += g_j * (score.value() - e);
    }
    let v = 1.0 / inverse_v;
    let delta = v * sum;
    let sigma_new = volatility(phi, sigma, v, delta, tau)?;
    let phi_star = libm::sqrt(phi * phi + sigma_new * sigma_new);
    let phi_new = 1.0 / libm::sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    let mu_new = mu + phi_new * phi_new * sum;
    Ok(Period {
        rating: Rating {
            rating: SCALE * mu_new + 1500.0,
            deviation: SCALE * phi_new,
            volatility: sigma_new,
        },
        variance: v,
        improvement: delta,
    })
}

/// Step 5 of the paper: the new volatility, by the Illinois algorithm.
fn volatility(phi: f64, sigma: f64, v: f64, delta: f64, tau: f64) -> Result<f64, GlickoError> {
    let a = libm::log(sigma * sigma);
    let f = |x: f64| {
        let ex = libm::exp(x);
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        libm::log(delta * delta - phi * phi - v)
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
            if k > f64::from(MAX_ITERATIONS) {
                return Err(GlickoError::NoConvergence);
            }
        }
        a - k * tau
    };
    let (mut f_a, mut f_b) = (f(big_a), f(big_b));
    let mut iterations = 0;
    // False for a NaN gap, which so goes on and ends in an error, not a result.
    let converged = |a: f64, b: f64| (b - a).abs() <= EPSILON;
    while !converged(big_a, big_b) {
        iterations += 1;
        if iterations > MAX_ITERATIONS {
            return Err(GlickoError::NoConvergence);
        }
        let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(big_c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = big_c;
        f_b = f_c;
    }
    Ok(libm::exp(big_a / 2.0))
}

/// `player` after `periods` rating periods without a game: each widens the deviation as a
/// period without games does (φ* = √(φ² + σ²)), so all of them at once give √(φ² + kσ²), in one
/// step whatever their number (a game dated far ahead costs nothing to rate), and the deviation
/// never exceeds `most`, a new player's: no one is less known than someone never seen.
#[must_use]
pub fn idle(player: Rating, periods: u64, most: f64) -> Rating {
    if periods == 0 {
        return player;
    }
    let phi = player.deviation / SCALE;
    let sigma = player.volatility;
    #[allow(clippy::cast_precision_loss, reason = "periods are far below 2^52")]
    let k = periods as f64;
    let widened = SCALE * libm::sqrt(phi * phi + k * sigma * sigma);
    Rating {
        deviation: widened.min(most),
        ..player
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rating(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    /// The paper's example: 1500/200/0.06 beats 1400/30 and loses to 1550/100 and 1700/300,
    /// τ = 0.5. The paper rounds (v 1.7785, Δ −0.4834, σ′ 0.05999, r′ 1464.06, RD′ 151.52); at
    /// full precision v is 1.778977, Δ −0.483933, σ′ 0.0599960, r′ 1464.0507, RD′ 151.5165.
    #[test]
    fn the_papers_example() {
        let games = [
            (rating(1400.0, 30.0), Score::Win),
            (rating(1550.0, 100.0), Score::Loss),
            (rating(1700.0, 300.0), Score::Loss),
        ];
        let out = period(rating(1500.0, 200.0), &games, 0.5).expect("a rating");
        let close = |got: f64, want: f64, within: f64| (got - want).abs() < within;
        assert!(close(out.variance, 1.778_977, 1e-6), "{out:?}");
        assert!(close(out.improvement, -0.483_933, 1e-6), "{out:?}");
        assert!(close(out.rating.volatility, 0.059_996_0, 1e-7), "{out:?}");
        assert!(close(out.rating.rating, 1464.0507, 1e-4), "{out:?}");
        assert!(close(out.rating.deviation, 151.5165, 1e-4), "{out:?}");
        // As a list prints them.
        assert_eq!(super::super::rounded(out.rating.rating, 2), 1464.05);
        assert_eq!(super::super::rounded(out.rating.deviation, 2), 151.52);
        // And to the bit: what every machine and build must compute (libm, not the platform's).
        let bits = [
            out.rating.rating,
            out.rating.deviation,
            out.rating.volatility,
        ]
        .map(|x| format!("{:016x}", x.to_bits()));
        insta::assert_snapshot!(bits.join(" "), @"4096e033e2fa54ae 4062f0875d9971fc 3faeb7cb2ccdb877");
    }

    #[test]
    fn a_period_without_games_only_widens_the_deviation() {
        let before = rating(1500.0, 200.0);
        let out = period(before, &[], 0.5).expect("a rating");
        assert_eq!(out.rating.rating, 1500.0);
        assert_eq!(out.rating.volatility, 0.06);
        // √(200² + (0.06 × 173.7178)²)
        assert!((out.rating.deviation - 200.271_4).abs() < 1e-4, "{out:?}");
    }

    #[test]
    fn numbers_that_are_no_ratings_are_refused() {
        let nan_opponent = [(rating(f64::NAN, 30.0), Score::Win)];
        assert_eq!(
            period(rating(1500.0, 200.0), &nan_opponent, 0.5),
            Err(GlickoError::Invalid("an opponent's rating"))
        );
        // A result certain in advance changes nothing but the deviation's growth.
        let far = [(rating(-6000.0, 30.0), Score::Win)];
        let out = period(rating(1500.0, 200.0), &far, 0.5).expect("a rating");
        assert_eq!(
            out.rating,
            period(rating(1500.0, 200.0), &[], 0.5)
                .expect("a rating")
                .rating
        );
        let bad = Rating {
            rating: 1500.0,
            deviation: 0.0,
            volatility: 0.06,
        };
        assert_eq!(
            period(bad, &[], 0.5),
            Err(GlickoError::Invalid("a rating deviation"))
        );
        assert_eq!(
            period(rating(f64::NAN, 200.0), &[], 0.5),
            Err(GlickoError::Invalid("a rating"))
        );
        assert_eq!(
            period(rating(1500.0, 200.0), &[], -1.0),
            Err(GlickoError::Invalid("τ"))
        );
    }
}
