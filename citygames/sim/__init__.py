"""Batch simulation: run many seeded bot games in processes; statistics, summaries and CSV."""

from .runner import (GameResult, bot_seeds, play_game, record_path, result_of, run_one,
                     simulate)
from .stats import (GroupStats, OutcomeStats, SimStats, compute_stats, csv_header, summary_text,
                    wilson_interval, write_csv)

__all__ = ["GameResult", "bot_seeds", "play_game", "record_path", "result_of", "run_one",
           "simulate", "GroupStats", "OutcomeStats", "SimStats", "compute_stats", "csv_header", "summary_text",
           "wilson_interval", "write_csv"]
