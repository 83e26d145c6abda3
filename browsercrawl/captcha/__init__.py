"""CAPTCHA solving: preprocessing, segmentation, recognisers, per-site profiles (see docs/captcha.md)."""
