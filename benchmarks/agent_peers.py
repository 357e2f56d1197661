"""The peers of the agent benchmark: LangGraph, LangChain's AgentExecutor, smolagents."""

from __future__ import annotations

import os
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

os.environ["LANGSMITH_TRACING"] = "false"
os.environ["LANGCHAIN_TRACING_V2"] = "false"

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from agent_common import (  # noqa: E402
    CALLS,
    TASK,
    THOUGHT,
    Runner,
    answer_text,
    pieces,
    verify,
)

# ----------------------------------------------------------------- LangChain / LangGraph


def langchain_parts() -> tuple[Any, Any]:
    """The LangChain tool and a scripted chat model class (imported lazily)."""
    from langchain_core.language_models.chat_models import BaseChatModel
    from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
    from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
    from langchain_core.tools import tool as lc_tool
    from langchain_core.utils.function_calling import convert_to_openai_tool

    @lc_tool
    def add(a: int, b: int) -> int:
        """Add two integers."""
        CALLS.append(a + b)
        return a + b

    class ScriptedChatModel(BaseChatModel):
        """Replays a script of (content, tool call or None); streams in ``chunk`` pieces."""

        script: list[tuple[str, dict[str, Any] | None]]
        chunk: int = 0
        position: int = 0
        streaming: bool = False

        @property
        def _llm_type(self) -> str:
            return "scripted"

        def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
            return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **kwargs)

        def _next(self) -> tuple[str, dict[str, Any] | None]:
            step = self.script[self.position]
            self.position += 1
            return step

        def _generate(
            self,
            messages: list[BaseMessage],
            stop: list[str] | None = None,
            run_manager: Any = None,
            **kwargs: Any,
        ) -> ChatResult:
            content, call = self._next()
            message = AIMessage(content=content, tool_calls=[call] if call else [])
            return ChatResult(generations=[ChatGeneration(message=message)])

        def _stream(
            self,
            messages: list[BaseMessage],
            stop: list[str] | None = None,
            run_manager: Any = None,
            **kwargs: Any,
        ) -> Iterator[ChatGenerationChunk]:
            import json

            content, call = self._next()
            for piece in pieces(content, self.chunk):
                chunk = ChatGenerationChunk(message=AIMessageChunk(content=piece))
                if run_manager is not None:
                    run_manager.on_llm_new_token(piece, chunk=chunk)
                yield chunk
            if call is None:
                return
            args = json.dumps(call["args"])
            for number, piece in enumerate(pieces(args, self.chunk)):
                first = number == 0
                tool_chunk = {
                    "name": call["name"] if first else None,
                    "args": piece,
                    "id": call["id"] if first else None,
                    "index": 0,
                    "type": "tool_call_chunk",
                }
                chunk = ChatGenerationChunk(
                    message=AIMessageChunk(content="", tool_call_chunks=[tool_chunk])
                )
                if run_manager is not None:
                    run_manager.on_llm_new_token("", chunk=chunk)
                yield chunk

    return add, ScriptedChatModel


def replay_chat_model(model: Any, steps: int, chunk: int) -> int:
    """Call the scripted chat model's own ``_generate``/``_stream`` for one run's steps."""
    model.position = 0
    chunks = 0
    for _ in range(steps):
        if chunk:
            chunks += sum(1 for _ in model._stream([]))
        else:
            model._generate([])
            chunks += 1
    return chunks


def langchain_script(steps: int) -> list[tuple[str, dict[str, Any] | None]]:
    actions: list[tuple[str, dict[str, Any] | None]] = [
        (THOUGHT, {"name": "add", "args": {"a": k, "b": 1}, "id": f"call_{k}", "type": "tool_call"})
        for k in range(steps - 1)
    ]
    return [*actions, (answer_text(steps), None)]


class LangGraphRunner(Runner):
    name = "LangGraph create_react_agent"

    def __init__(self, steps: int, chunk: int) -> None:
        super().__init__(steps, chunk)
        from langgraph.prebuilt import create_react_agent

        tool, model_class = langchain_parts()
        self.model = model_class(script=langchain_script(steps), chunk=chunk)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # create_react_agent is deprecated in LangGraph 1.x
            self.graph = create_react_agent(self.model, [tool], debug=False)
        self.config = {"recursion_limit": 4 * steps}

    def _run_once(self) -> tuple[Any, int]:
        inputs = {"messages": [("user", TASK)]}
        if not self.chunk:
            state = self.graph.invoke(inputs, self.config)
            return state, 0
        chunks = 0
        state = None
        for mode, data in self.graph.stream(
            inputs, self.config, stream_mode=["messages", "values"]
        ):
            if mode == "messages":
                chunks += 1
            else:
                state = data
        return state, chunks

    def measure(self, runs: int) -> list[float]:
        from langchain_core.messages import AIMessage, ToolMessage

        times = []
        for _ in range(runs):
            self.model.position = 0
            CALLS.clear()
            started = time.perf_counter()
            state, chunks = self._run_once()
            times.append(time.perf_counter() - started)
            messages = state["messages"]
            tool_messages = [m for m in messages if isinstance(m, ToolMessage)]
            statuses = [m.status for m in tool_messages]
            verify(all(x == "success" for x in statuses), f"LangGraph tool calls: {statuses}")
            model_calls = sum(isinstance(m, AIMessage) for m in messages)
            verify(not self.chunk or chunks > self.steps, "LangGraph: no streamed chunks")
            self.check(messages[-1].content, model_calls)
        return times

    def model_seconds(self) -> float:
        return self.median_replay(lambda: replay_chat_model(self.model, self.steps, self.chunk))


class AgentExecutorRunner(Runner):
    name = "LangChain AgentExecutor"

    def __init__(self, steps: int, chunk: int) -> None:
        super().__init__(steps, chunk)
        from langchain_classic.agents import AgentExecutor, create_tool_calling_agent
        from langchain_core.callbacks import BaseCallbackHandler
        from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

        tool, model_class = langchain_parts()
        options = {"streaming": True} if chunk else {}
        self.model = model_class(script=langchain_script(steps), chunk=chunk, **options)
        prompt = ChatPromptTemplate.from_messages(
            [
                ("system", "You are a helpful assistant."),
                ("human", "{input}"),
                MessagesPlaceholder("agent_scratchpad"),
            ]
        )
        agent = create_tool_calling_agent(self.model, [tool], prompt)
        self.executor = AgentExecutor(
            agent=agent,
            tools=[tool],
            max_iterations=steps,
            verbose=False,
            return_intermediate_steps=True,
        )
        runner = self

        class TokenSink(BaseCallbackHandler):
            def on_llm_new_token(self, token: str, **kwargs: Any) -> None:
                runner.tokens += 1

        self.tokens = 0
        self.config = {"callbacks": [TokenSink()]} if chunk else {}

    def measure(self, runs: int) -> list[float]:
        times = []
        for _ in range(runs):
            self.model.position = 0
            self.tokens = 0
            CALLS.clear()
            started = time.perf_counter()
            result = self.executor.invoke({"input": TASK}, self.config)
            times.append(time.perf_counter() - started)
            # Each intermediate step is one model call with a tool call; plus the answer.
            verify(not self.chunk or self.tokens > self.steps, "AgentExecutor: no streamed tokens")
            self.check(result["output"], len(result["intermediate_steps"]) + 1)
        return times

    def model_seconds(self) -> float:
        return self.median_replay(lambda: replay_chat_model(self.model, self.steps, self.chunk))


# ------------------------------------------------------------------------------ smolagents


class SmolagentsRunner(Runner):
    name = "smolagents ToolCallingAgent"

    def __init__(self, steps: int, chunk: int) -> None:
        super().__init__(steps, chunk)
        from rich.console import Console
        from smolagents import AgentLogger, LogLevel, ToolCallingAgent, tool
        from smolagents.models import (
            ChatMessage,
            ChatMessageStreamDelta,
            ChatMessageToolCall,
            ChatMessageToolCallFunction,
            ChatMessageToolCallStreamDelta,
            MessageRole,
            Model,
            TokenUsage,
        )

        @tool
        def add(a: int, b: int) -> int:
            """Add two integers.

            Args:
                a: The first integer.
                b: The second integer.
            """
            CALLS.append(a + b)
            return a + b

        script: list[tuple[str, str, dict[str, Any]]] = [
            (THOUGHT, "add", {"a": k, "b": 1}) for k in range(steps - 1)
        ]
        script.append(("Done.", "final_answer", {"answer": answer_text(steps)}))

        class ScriptedSmolModel(Model):
            def __init__(self) -> None:
                super().__init__(model_id="scripted")
                self.position = 0

            def _next(self) -> tuple[int, tuple[str, str, dict[str, Any]]]:
                index = self.position
                self.position += 1
                return index, script[index]

            def generate(self, messages: Any, **kwargs: Any) -> ChatMessage:
                index, (content, name, args) = self._next()
                call = ChatMessageToolCall(
                    function=ChatMessageToolCallFunction(name=name, arguments=args),
                    id=f"call_{index}",
                    type="function",
                )
                return ChatMessage(
                    role=MessageRole.ASSISTANT,
                    content=content,
                    tool_calls=[call],
                    token_usage=TokenUsage(input_tokens=0, output_tokens=0),
                )

            def generate_stream(self, messages: Any, **kwargs: Any) -> Iterator[Any]:
                import json

                index, (content, name, args) = self._next()
                for piece in pieces(content, chunk):
                    yield ChatMessageStreamDelta(content=piece)
                for number, piece in enumerate(pieces(json.dumps(args), chunk)):
                    first = number == 0
                    yield ChatMessageStreamDelta(
                        tool_calls=[
                            ChatMessageToolCallStreamDelta(
                                index=0,
                                id=f"call_{index}" if first else None,
                                type="function" if first else None,
                                function=ChatMessageToolCallFunction(
                                    name=name if first else "", arguments=piece
                                ),
                            )
                        ]
                    )
                yield ChatMessageStreamDelta(
                    token_usage=TokenUsage(input_tokens=0, output_tokens=0)
                )

        self.model = ScriptedSmolModel()
        self.devnull = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the runner
        self.agent = ToolCallingAgent(
            tools=[add],
            model=self.model,
            max_steps=steps,
            verbosity_level=LogLevel.OFF,
            logger=AgentLogger(level=LogLevel.OFF, console=Console(file=self.devnull)),
            stream_outputs=bool(chunk),
        )

    def _run_once(self) -> tuple[Any, int]:
        from smolagents.memory import FinalAnswerStep
        from smolagents.models import ChatMessageStreamDelta

        if not self.chunk:
            return self.agent.run(TASK), 0
        chunks = 0
        output = None
        for event in self.agent.run(TASK, stream=True):
            if isinstance(event, ChatMessageStreamDelta):
                chunks += 1
            elif isinstance(event, FinalAnswerStep):
                output = event.output
        return output, chunks

    def measure(self, runs: int) -> list[float]:
        from smolagents.memory import ActionStep

        times = []
        for _ in range(runs):
            self.model.position = 0
            CALLS.clear()
            started = time.perf_counter()
            output, chunks = self._run_once()
            times.append(time.perf_counter() - started)
            actions = [s for s in self.agent.memory.steps if isinstance(s, ActionStep)]
            errors = [s.error for s in actions if s.error is not None]
            verify(not errors, f"smolagents step errors: {errors}")
            verify(not self.chunk or chunks > self.steps, "smolagents: no streamed deltas")
            self.check(output, len(actions))
        return times

    def model_seconds(self) -> float:
        return self.median_replay(self._replay)

    def _replay(self) -> int:
        self.model.position = 0
        chunks = 0
        for _ in range(self.steps):
            if self.chunk:
                chunks += sum(1 for _ in self.model.generate_stream([]))
            else:
                self.model.generate([])
                chunks += 1
        return chunks
