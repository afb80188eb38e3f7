"""Batch simulation: run many seeded bot games in processes or on Ray (``backends``); statistics,
summaries, CSV, results folders of Parquet tables (``results``) and streamed studies (``study``)."""

from .runner import (GameResult, bot_seeds, play_game, progress_bar, record_path, result_of, run_one,
                     simulate)
from .stats import (GroupStats, OutcomeStats, SimStats, StatsAccumulator, compute_stats, csv_header, summary_text,
                    wilson_interval, write_csv)

__all__ = ["GameResult", "bot_seeds", "play_game", "record_path", "result_of", "run_one",
           "simulate", "progress_bar", "GroupStats", "OutcomeStats", "SimStats", "StatsAccumulator",
           "compute_stats", "csv_header", "summary_text", "wilson_interval", "write_csv"]
